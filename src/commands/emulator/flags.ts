// The values of `emulator`'s flags, read before anything starts (and --speed's variable, by serve.ts).
import { UsageError } from '../../errors.js';

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65_535)
    throw new UsageError(`--port takes a port number from 0 to 65535, not ${JSON.stringify(value)}.`);
  return n;
}

export function parseSpeed(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1_000_000)
    throw new UsageError(`--speed takes a number above 0 (2 runs twice as fast), not ${JSON.stringify(value)}.`);
  return n;
}

/**
 * --shapes: default, alternate or random:SEED (src/emulator/shapes/index.ts parses the same;
 * checked here without loading the emulator, which loads only when the command runs).
 */
export function parseShapes(value: string): 'default' | 'alternate' | `random:${number}` {
  const seed = /^random:(\d{1,10})$/.exec(value)?.[1];
  if (seed !== undefined && Number(seed) <= 4_294_967_295) return `random:${Number(seed)}`;
  if (value === 'default' || value === 'alternate') return value;
  throw new UsageError(
    `--shapes takes default, alternate or random:SEED (a whole number from 0 to 4294967295), not ${JSON.stringify(value)}.`,
  );
}
