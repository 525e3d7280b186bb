// Small string helpers written as loops, so no pattern can backtrack on long input.

/** The first `length` characters with runs of whitespace as one space, and '...' when there is more. */
export function preview(text: string, length: number): string {
  const flat = text.split(/\s+/).filter(Boolean).join(" ");
  return flat.length > length ? `${flat.slice(0, length)}...` : flat;
}

/** `https://site.example//` → `https://site.example`. */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === "/") end--;
  return value.slice(0, end);
}
