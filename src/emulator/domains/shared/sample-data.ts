// Deterministic demo data for the seeded sites: the same seed gives the same history, so
// docs, demos and tests can rely on it.
import { createHash } from 'node:crypto';

/** A small PRNG (mulberry32) seeded from a string. */
export function seededRandom(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pickOne = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];

export const between = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Newest first, by a numeric time field. */
export const newestFirst = <T>(list: T[], at: (x: T) => number): T[] => [...list].sort((x, y) => at(y) - at(x));
