// Small string helpers written as loops, so no pattern can backtrack on long input (issue 11).

/** `https://site.example//` → `https://site.example`. */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === "/") end--;
  return value.slice(0, end);
}
