// The shapes of the service: one layer between the emulator's domains and the wire. Where the
// service's reference says "not shown" (field names, orders, cursor types, event data, id
// formats, extra fields), the domains answer with our default choices; the alternate shapes
// reshape every answer into other plausible choices (alternate.ts), so a client can be tried
// against a service it was not written for (docs/emulator.md "Shapes"). The default shapes
// change nothing. Picked with startEmulator({ shapes }), `sitebuilder emulator --shapes`, or
// the SITEBUILDER_EMULATOR_SHAPES environment variable (the default of both).
import { randomUUID } from 'node:crypto';
import { methodInfo } from '../../api/method-index.js';
import type { EmulatorHost } from '../host.js';
import { refuse } from '../refusal.js';
import { ALTERNATE_SEED_SITE, ARG_ALIASES, CURSOR_FIELDS, METHOD_RULES, REFUSAL_RULES, chatCode } from './alternate.js';
import { CursorTable } from './cursors.js';
import { alternateId, defaultId } from './ids.js';
import { applyRule } from './rules.js';

export { idPattern } from './ids.js';

export const SHAPES_NAMES = ['default', 'alternate'] as const;
export type ShapesName = (typeof SHAPES_NAMES)[number];
export const SHAPES_ENV = 'SITEBUILDER_EMULATOR_SHAPES';

type Rec = Record<string, unknown>;

export interface Shapes {
  readonly name: ShapesName;
  /** The id of the n-th record of a kind (newId). */
  formatId(prefix: string, n: number): string;
  /** An X-Request-Id, or undefined for the emulator's own form. */
  requestId(): string | undefined;
  /** Arguments as sent → as the domains take them (numeric cursors back to theirs); may refuse with 400. */
  incoming(method: string, args: Rec): Rec;
  /** A handler's data (or a GET address's, keyed `GET /v1/…`) → what goes on the wire. */
  outgoing(method: string, data: unknown): unknown;
  /** A refusal's data → what goes on the wire. */
  refusal(method: string, data: unknown): unknown;
  /** Adds to an envelope about to be kept or written (a copy; an envelope that has them already is left alone). */
  envelope<E extends Rec>(body: E, requestId: string, at: string): E;
  /** After the core demo data is seeded, before the domains seed theirs. */
  seedCore(emu: EmulatorHost): void;
}

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

// ---- the alternate shapes ----------------------------------------------------------------

const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The argument that carries a cursor back, by listing pattern. */
function cursorArgOf(method: string): string | undefined {
  const listing = methodInfo(method)?.listing;
  if (listing === 'nextCursor' || listing === 'backwards') return 'cursor';
  if (listing === 'token') return 'token';
  return undefined;
}

/** Arguments sent under another name get ours (when ours is not sent too). */
function withAliases(args: Rec, aliases: Record<string, string> | undefined): Rec {
  if (!aliases) return args;
  const out: Rec = { ...args };
  for (const [alias, ours] of Object.entries(aliases)) {
    if (alias in out && !(ours in out)) {
      out[ours] = out[alias];
      delete out[alias];
    }
  }
  return out;
}

/** Left as they are: a run's events (their data is reshaped per kind) and the tools' JSON Schemas. */
const NO_EXTRAS: Record<string, string> = { get_job: 'events', 'GET /v1/tools': 'inputSchema' };

/** Fields a real service adds that no client asked for, on every object: a version key and a metadata object. */
function withExtras(value: unknown, skip: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => withExtras(v, skip));
  if (!isRecord(value)) return value;
  const out: Rec = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === skip ? v : withExtras(v, skip);
  return { ...out, __v: 0, meta: { revision: 1 } };
}

function alternateShapes(): Shapes {
  const cursors = new CursorTable();
  return {
    name: 'alternate',
    formatId: alternateId,
    requestId: () => randomUUID(),
    incoming(method, sent) {
      const args = withAliases(sent, ARG_ALIASES[method]);
      const arg = cursorArgOf(method);
      if (!arg || args[arg] === undefined) return args;
      const value = args[arg];
      const answered = arg === 'token' ? 'nextToken' : method === 'list_messages' ? 'oldestCursor' : 'nextCursor';
      if (typeof value !== 'number')
        refuse(400, `\`${arg}\` must be a number: send back the ${answered} of the previous page as it came.`, {
          reason: 'invalid-argument',
          argument: arg,
        });
      const text = cursors.toText(value as number);
      if (text === undefined)
        refuse(
          400,
          `\`${arg}\` ${value} is not a ${arg} this method gave; send back the ${answered} of the previous page.`,
          {
            code: 'BAD_CURSOR',
          },
        );
      return { ...args, [arg]: text };
    },
    outgoing(method, data) {
      let out = applyRule(data, METHOD_RULES[method]);
      if (isRecord(out)) {
        const numbered: Rec = { ...out };
        for (const f of CURSOR_FIELDS) if (typeof out[f] === 'string') numbered[f] = cursors.toNumber(out[f] as string);
        out = numbered;
      }
      return method === 'GET /v1/openapi.json' ? out : withExtras(out, NO_EXTRAS[method]);
    },
    refusal(method, data) {
      let out = applyRule(data, REFUSAL_RULES[method]);
      if (isRecord(out) && typeof out.code === 'string') out = { ...out, code: chatCode(out.code) };
      return out;
    },
    // A replay keeps the fields of the answer it replays (the first call's requestId).
    envelope: (body, requestId, at) => ('requestId' in body ? body : { ...body, requestId, servedAt: at }),
    seedCore(emu) {
      const s = ALTERNATE_SEED_SITE;
      if (!emu.workspace('ws_demo')) return;
      emu.addSite(
        {
          _id: s._id,
          workspaceId: 'ws_demo',
          name: s.name,
          prompt: s.prompt,
          importSource: null,
          createdBy: 'usr_dana',
          createdAt: emu.clock.now() - s.daysAgo * 86_400_000,
        },
        { notify: false },
      );
    },
  };
}
