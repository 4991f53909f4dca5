// The shapes of the service: one layer between the emulator's domains and the wire. Where the
// service's reference says "not shown" (field names, orders, cursor types, event data, id
// formats, extra fields), the domains answer with our default choices; the alternate shapes
// reshape every answer into other plausible choices (alternate.ts), so a client can be tried
// against a service it was not written for (docs/emulator.md "Shapes"). The default shapes
// change nothing. Picked with startEmulator({ shapes }), `sitebuilder emulator --shapes`, or
// the SITEBUILDER_EMULATOR_SHAPES environment variable (the default of both).
import { alternateShapes } from './alternate-shapes.js';
import { defaultId } from './ids.js';
import type { Shapes, ShapesName } from './types.js';

export { idPattern } from './ids.js';
export type { Shapes, ShapesName } from './types.js';

export const SHAPES_NAMES = ['default', 'alternate'] as const;
export const SHAPES_ENV = 'SITEBUILDER_EMULATOR_SHAPES';

export class ShapesError extends Error {}

/** A shapes name from the command line or the environment; undefined or empty means default. */
export function parseShapesName(value: string | undefined, source: string): ShapesName {
  if (value === undefined || value === '') return 'default';
  if ((SHAPES_NAMES as readonly string[]).includes(value)) return value as ShapesName;
  throw new ShapesError(`${source} takes ${SHAPES_NAMES.join(' or ')}, not ${JSON.stringify(value)}.`);
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
  return name === 'alternate' ? alternateShapes() : defaultShapes;
}
