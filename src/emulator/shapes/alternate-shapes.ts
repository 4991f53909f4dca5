// The alternate shapes as a Shapes object: the table of alternate.ts applied to every answer on
// its way out (and the arguments on their way in), numeric cursors, ids of other forms, extra
// fields, and one more seeded site with an id of another form (docs/emulator.md "Shapes").
import { randomUUID } from 'node:crypto';
import type { EmulatorHost } from '../host.js';
import { ALTERNATE_SEED_SITE, ARG_ALIASES, METHOD_RULES, REFUSAL_RULES, chatCode } from './alternate.js';
import { NumericCursors } from './cursors.js';
import { alternateId } from './ids.js';
import type { Shapes } from './types.js';
import { applyRule } from './rules.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

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

export function alternateShapes(): Shapes {
  const cursors = new NumericCursors();
  return {
    name: 'alternate',
    formatId: alternateId,
    requestId: () => randomUUID(),
    incoming: (method, sent) => cursors.incoming(method, withAliases(sent, ARG_ALIASES[method])),
    outgoing(method, data) {
      const out = cursors.outgoing(applyRule(data, METHOD_RULES[method]));
      return method === 'GET /v1/openapi.json' ? out : withExtras(out, NO_EXTRAS[method]);
    },
    refusal(method, data) {
      let out = applyRule(data, REFUSAL_RULES[method]);
      if (isRecord(out) && typeof out.code === 'string') out = { ...out, code: chatCode(out.code) };
      return out;
    },
    // A replay keeps the fields of the answer it replays (the first call's requestId).
    envelope: (body, requestId, at) => ('requestId' in body ? body : { ...body, requestId, servedAt: at }),
    seedCore(emu: EmulatorHost) {
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
