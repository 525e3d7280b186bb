// Bradley–Terry strengths from pairwise outcomes, reported on the Elo scale Chatbot Arena uses.

export const ELO_SCALE = 400;
export const ELO_BASE = 10;
export const ELO_ANCHOR = 1000;

/**
 * Pairwise outcomes of `size` players as a flat size × size matrix: `wins[i * size + j]` is what
 * i scored against j (1 a win, ½ a tie), so `wins[i][j] + wins[j][i]` is the number of games.
 */
export type WinMatrix = Float64Array;

export function emptyWinMatrix(size: number): WinMatrix {
  return new Float64Array(size * size);
}

/** Records one game of i against j: 1 = i won, 0 = j won, ½ = tie. */
export function addGame(wins: WinMatrix, size: number, i: number, j: number, outcome: number): void {
  wins[i * size + j]! += outcome;
  wins[j * size + i]! += 1 - outcome;
}

export interface BradleyTerryOptions {
  /**
   * Virtual games, scored as ties, added between every pair: keeps the strengths finite when a
   * player wins or loses everything (0 = the plain maximum-likelihood estimate).
   */
  readonly pseudoTies?: number;
  readonly maxIterations?: number;
  readonly tolerance?: number;
  /** Strengths to start from (a warm start speeds up bootstrap fits). */
  readonly start?: Float64Array;
}

/**
 * Maximum-likelihood strengths p (geometric mean 1), ties counting half a win to each side:
 * maximises Σ_{i≠j} w_ij log(p_i / (p_i + p_j)) by Newton's method on θ = log p (the
 * log-likelihood is concave, so a few steps converge even when strengths are far apart, where
 * the classic MM iteration crawls). A player with no games keeps strength 1.
 */
export function bradleyTerryStrengths(wins: WinMatrix, size: number, options: BradleyTerryOptions = {}): Float64Array {
  const pseudo = options.pseudoTies ?? 0;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  const games = new Float64Array(size * size);
  const won = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      if (i === j) continue;
      games[i * size + j] = wins[i * size + j]! + wins[j * size + i]! + pseudo;
      won[i]! += wins[i * size + j]! + pseudo / 2;
    }
  }
  const theta = new Float64Array(size);
  if (options.start) for (let i = 0; i < size; i++) theta[i] = Math.log(options.start[i]!);
  const hessian = new Float64Array(size * size);
  const gradient = new Float64Array(size);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    hessian.fill(0);
    for (let i = 0; i < size; i++) {
      let expectedWins = 0;
      for (let j = 0; j < size; j++) {
        const n = games[i * size + j]!;
        if (i === j || n === 0) continue;
        const p = 1 / (1 + Math.exp(theta[j]! - theta[i]!));
        expectedWins += n * p;
        const curvature = n * p * (1 - p);
        hessian[i * size + i]! += curvature;
        hessian[i * size + j]! -= curvature;
      }
      gradient[i] = won[i]! - expectedWins;
      // A small ridge fixes the free overall level (and players without games).
      hessian[i * size + i]! += 1e-9;
    }
    const step = solveLinear(hessian, gradient, size);
    // Only differences of θ matter: drop the step's common part before judging its size.
    let common = 0;
    for (const value of step) common += value;
    common /= Math.max(1, size);
    let largest = 0;
    for (let i = 0; i < size; i++) largest = Math.max(largest, Math.abs(step[i]! - common));
    const damping = largest > 2 ? 2 / largest : 1;
    let centre = 0;
    for (let i = 0; i < size; i++) {
      theta[i]! += damping * (step[i]! - common);
      centre += theta[i]!;
    }
    centre /= Math.max(1, size);
    for (let i = 0; i < size; i++) theta[i]! -= centre;
    if (largest < tolerance) break;
  }
  return theta.map((value) => Math.exp(value));
}

/** Solves A x = b (A size × size, row-major, overwritten) by Gaussian elimination with partial pivoting. */
function solveLinear(matrix: Float64Array, rhs: Float64Array, size: number): Float64Array {
  const a = matrix;
  const x = Float64Array.from(rhs);
  for (let column = 0; column < size; column++) {
    let pivot = column;
    for (let row = column + 1; row < size; row++) {
      if (Math.abs(a[row * size + column]!) > Math.abs(a[pivot * size + column]!)) pivot = row;
    }
    if (pivot !== column) {
      for (let k = 0; k < size; k++) {
        const swap = a[column * size + k]!;
        a[column * size + k] = a[pivot * size + k]!;
        a[pivot * size + k] = swap;
      }
      const swap = x[column]!;
      x[column] = x[pivot]!;
      x[pivot] = swap;
    }
    const diagonal = a[column * size + column]!;
    if (diagonal === 0) continue;
    for (let row = column + 1; row < size; row++) {
      const factor = a[row * size + column]! / diagonal;
      if (factor === 0) continue;
      for (let k = column; k < size; k++) a[row * size + k]! -= factor * a[column * size + k]!;
      x[row]! -= factor * x[column]!;
    }
  }
  for (let row = size - 1; row >= 0; row--) {
    let sum = x[row]!;
    for (let k = row + 1; k < size; k++) sum -= a[row * size + k]! * x[k]!;
    const diagonal = a[row * size + row]!;
    x[row] = diagonal === 0 ? 0 : sum / diagonal;
  }
  return x;
}

/** Strength → Elo-scale rating: 400 · log10(p) + 1000, so the geometric-mean player rates 1000. */
export function eloRating(strength: number): number {
  return (ELO_SCALE * Math.log(strength)) / Math.log(ELO_BASE) + ELO_ANCHOR;
}

/** Share of games i won against j (ties half), or null when they never met. */
export function winRate(wins: WinMatrix, size: number, i: number, j: number): number | null {
  const total = wins[i * size + j]! + wins[j * size + i]!;
  return total > 0 ? wins[i * size + j]! / total : null;
}
