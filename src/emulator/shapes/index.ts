// The shapes of the service: one layer between the emulator's domains and the wire. Where the
// service's reference says "not shown" (field names, orders, cursor types, event data, id
// formats, extra fields), the domains answer with our default choices; the alternate shapes
// reshape every answer into other plausible choices (alternate.ts), so a client can be tried
// against a service it was not written for, and the random shapes draw every such choice from
// a seed (random/, a shape fuzzer) (docs/emulator.md "Shapes"). The default shapes change
// nothing. Picked with startEmulator({ shapes }), `sitebuilder emulator --shapes`, or the
// SITEBUILDER_EMULATOR_SHAPES environment variable (the default of both).
import { alternateShapes } from './alternate-shapes.js';
import { defaultId, idPattern as fixedIdPattern } from './ids.js';
import { randomIdPattern } from './random/values.js';
import { randomShapes } from './random/index.js';
import type { Shapes, ShapesName } from './types.js';

export type { Shapes, ShapesName } from './types.js';

/** The named shapes (besides them, `random:SEED`). */
export const SHAPES_NAMES = ['default', 'alternate'] as const;
export const SHAPES_ENV = 'SITEBUILDER_EMULATOR_SHAPES';

export class ShapesError extends Error {}

/** The largest seed: seeds are whole numbers that fit in 32 bits. */
export const MAX_SEED = 4_294_967_295;

/** The seed of `random:SEED`, or undefined for the other shapes. */
export function seedOf(name: string): number | undefined {
  const m = /^random:(\d{1,10})$/.exec(name);
  return m && Number(m[1]) <= MAX_SEED ? Number(m[1]) : undefined;
}

/** A shapes name from the command line or the environment; undefined or empty means default. */
export function parseShapesName(value: string | undefined, source: string): ShapesName {
  if (value === undefined || value === '') return 'default';
  if ((SHAPES_NAMES as readonly string[]).includes(value)) return value as ShapesName;
  if (seedOf(value) !== undefined) return `random:${seedOf(value)}` as ShapesName;
  throw new ShapesError(
    `${source} takes default, alternate or random:SEED (a whole number from 0 to ${MAX_SEED}), not ${JSON.stringify(value)}.`,
  );
}

/**
 * A regular expression source (no anchors) matching the ids of a kind in the named shapes,
 * for tests and scripts that must recognize an id without knowing its form in advance.
 * `req` is the X-Request-Id.
 */
export function idPattern(prefix: string, shapes: ShapesName): string {
  const seed = seedOf(shapes);
  return seed === undefined ? fixedIdPattern(prefix, shapes as 'default' | 'alternate') : randomIdPattern(seed, prefix);
}

/** The shapes SITEBUILDER_EMULATOR_SHAPES names (default when unset). */
export function shapesFromEnv(env: Record<string, string | undefined>): ShapesName {
  return parseShapesName(env[SHAPES_ENV], SHAPES_ENV);
}

const defaultShapes: Shapes = {
  name: 'default',
  formatId: defaultId,
  requestId: () => undefined,
  incoming: (_method, args) => args,
  outgoing: (_method, data) => data,
  refusal: (_method, data) => data,
  envelope: (body) => body,
  seedCore: () => {},
};

export function createShapes(name: ShapesName = 'default'): Shapes {
  if (name === 'alternate') return alternateShapes();
  const seed = seedOf(name);
  return seed === undefined ? defaultShapes : randomShapes(seed);
}
