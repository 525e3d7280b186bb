// Axis ticks and labels the results charts share. Pure, so the rules are tested on their own.

/** The steps an axis may count in, per power of ten: 1, 2, 2.5 and 5 (never 3: no "0, 3, 6, 9, 10"). */
const NICE_STEPS = [1, 2, 2.5, 5, 10];

/**
 * Evenly spaced ticks from 0 that cover `max` with at most `maxTicks` ticks, counting in a nice
 * step (1, 2, 2.5 or 5 times a power of ten); the last tick is the first multiple of the step at
 * or above `max`. A score axis (max 10) reads 0, 2, 4, 6, 8, 10.
 */
export function niceTicks(max: number, maxTicks = 6): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const intervals = Math.max(1, maxTicks - 1);
  const rough = max / intervals;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = (NICE_STEPS.find((nice) => nice * power >= rough - 1e-12 * power) ?? 10) * power;
  const count = Math.ceil(max / step - 1e-9);
  // Rounded to the step's decimals, so that 0.1 × 3 reads 0.3 and not 0.30000000000000004.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Array.from({ length: count + 1 }, (_, index) => Number((index * step).toFixed(decimals)));
}

/** A model name cut to `length` characters with "…", for an axis; the full name goes in its tooltip. */
export function shortLabel(name: string, length = 18): string {
  return name.length <= length ? name : `${name.slice(0, length - 1).trimEnd()}…`;
}

/**
 * A model name broken into lines of at most `lineLength` characters at spaces (a word longer than
 * a line is cut where the line ends), so an axis shows the whole name instead of cutting it.
 */
export function wrapLabel(name: string, lineLength: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of name.trim().split(/\s+/u).filter(Boolean)) {
    let rest = word;
    if (line && line.length + 1 + rest.length <= lineLength) {
      line = `${line} ${rest}`;
      continue;
    }
    if (line) lines.push(line);
    while (rest.length > lineLength) {
      lines.push(rest.slice(0, lineLength));
      rest = rest.slice(lineLength);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

export type LabelSide = "top" | "bottom" | "right" | "left";
const SIDES: LabelSide[] = ["top", "bottom", "right", "left"];

/**
 * Where each scatter point's label goes so that labels of close points do not pile up: above its
 * point, unless a point placed before it lies within `near` (a share of each axis's range) with its
 * label on that side; then below, right or left, whichever is free first. Points are placed in the
 * order given (the best first, so it keeps the place above).
 */
export function labelSides(
  points: readonly { x: number; y: number }[],
  range: { x: number; y: number },
  near = 0.08,
): LabelSide[] {
  const sides: LabelSide[] = [];
  points.forEach((point, index) => {
    const taken = new Set<LabelSide>();
    for (let before = 0; before < index; before += 1) {
      const other = points[before]!;
      const dx = range.x > 0 ? Math.abs(point.x - other.x) / range.x : 0;
      const dy = range.y > 0 ? Math.abs(point.y - other.y) / range.y : 0;
      if (dx < near && dy < near) taken.add(sides[before]!);
    }
    sides.push(SIDES.find((side) => !taken.has(side)) ?? SIDES[index % SIDES.length]!);
  });
  return sides;
}
