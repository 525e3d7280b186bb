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
 * Maximum-likelihood strengths p (geometric mean 1) by the MM algorithm (Hunter 2004),
 * ties counting half a win to each side: p_i ← W_i / Σ_j N_ij / (p_i + p_j).
 * A player with no games keeps strength 1.
 */
export function bradleyTerryStrengths(wins: WinMatrix, size: number, options: BradleyTerryOptions = {}): Float64Array {
  const pseudo = options.pseudoTies ?? 0;
  const maxIterations = options.maxIterations ?? 1000;
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
  const p = options.start ? Float64Array.from(options.start) : new Float64Array(size).fill(1);
  const next = new Float64Array(size);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let logSum = 0;
    let counted = 0;
    for (let i = 0; i < size; i++) {
      let denominator = 0;
      for (let j = 0; j < size; j++) {
        const n = games[i * size + j]!;
        if (n > 0) denominator += n / (p[i]! + p[j]!);
      }
      next[i] = denominator > 0 ? Math.max(won[i]! / denominator, 1e-12) : p[i]!;
      if (denominator > 0) {
        logSum += Math.log(next[i]!);
        counted++;
      }
    }
    const scale = counted > 0 ? Math.exp(logSum / counted) : 1;
    let change = 0;
    for (let i = 0; i < size; i++) {
      const value = next[i]! / scale;
      change = Math.max(change, Math.abs(Math.log(value / p[i]!)));
      p[i] = value;
    }
    if (change < tolerance) break;
  }
  return p;
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
