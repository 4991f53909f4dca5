// `emulator`'s arguments and flags, their values read before anything starts (and --speed's
// variable, by serve.ts), and the options run() gets from them, which serve.ts takes.
import type { ArgumentDefinition, InferredOptions, OptionDefinition } from '../../core/define.js';
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

export const EMULATOR_ARGS = [
  { name: 'command', description: 'a command to run against the emulator (after --)', variadic: true },
] as const satisfies readonly ArgumentDefinition[];

export const EMULATOR_OPTIONS = [
  {
    flags: '--host <host>',
    description:
      'address to bind (anything but loopback exposes the demo tokens, and the control API then needs a secret: $SITEBUILDER_EMULATOR_SECRET, else one printed at start)',
    default: '127.0.0.1',
  },
  { flags: '--port <port>', description: 'port (0 picks a free one and prints it)', default: 0, parse: parsePort },
  {
    flags: '--state <file>',
    description: 'load the state from FILE at start (when it exists) and save it there on exit',
  },
  {
    flags: '--speed <n>',
    description:
      'emulated time runs n times faster (runs, publishes, the budget minute); default: $SITEBUILDER_EMULATOR_SPEED, else 1',
    parse: parseSpeed,
  },
  {
    flags: '--setup',
    description:
      'save a profile "emulator" (or --profile NAME) that points at this emulator with its full-scope demo token, current until the emulator stops',
  },
  {
    flags: '--shapes <name>',
    description:
      'answer with our choices where the service leaves them open (default), with other plausible ones (alternate: other field names, orders, numeric cursors, id forms), or with choices drawn from a seed (random:SEED, a shape fuzzer); default: $SITEBUILDER_EMULATOR_SHAPES, else default',
    parse: parseShapes,
  },
] as const satisfies readonly OptionDefinition[];

/** What run() of `emulator` gets: `speed` and `shapes` unset fall back to their variables (serve.ts). */
export type EmulatorOptions = InferredOptions<typeof EMULATOR_ARGS, typeof EMULATOR_OPTIONS>;
