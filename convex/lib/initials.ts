// How a person is shown to teammates without an email or an id: their initials.

/** The name fields a user row may have (users table). */
export interface NamedPerson {
  readonly fullName?: string | null;
  readonly name?: string;
  readonly email?: string;
}

/** 'Ada Lovelace' → 'AL'; without a name, from the email's local part: 'ada.l@x' → 'AL'. */
export function initialsOf(user: NamedPerson): string {
  const source = user.fullName?.trim() || user.name?.trim() || user.email?.split("@")[0] || "";
  const words = source.split(/[\s._-]+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  const letters = words
    .slice(0, 2)
    .map((word) => [...word].find((char) => /[\p{L}\p{N}]/u.test(char)) ?? "")
    .join("");
  return letters.toUpperCase() || "?";
}
