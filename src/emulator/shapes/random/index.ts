// The random shapes (`--shapes random:SEED`): a shape fuzzer. Every choice the service's reference
// leaves "not shown" is drawn from the seed: field names (nested ones and names no alias list
// knows), text, task and file forms of event data, id forms (numbers among them), job states
// before and after `running`, the order inside a page, time formats, extra fields, cursor types,
// argument names and arguments required where the reference shows none. What the reference
// states never changes: the envelope, get_job's fields, the ask_user question, the paging
// conventions, the job states' meanings, limits and refusal messages. The same seed gives the
// same answers to the same calls (docs/emulator.md "Random shapes" has the catalogue).
import { randomUUID } from 'node:crypto';
import { METHOD_INDEX_NAMES } from '../../../api/method-index.js';
import { NumericCursors } from '../cursors.js';
import type { Shapes } from '../types.js';
import { Arguments } from './arguments.js';
import { Draw } from './draw.js';
import { RunShaper, SentLog } from './events.js';
import { Names } from './names.js';
import { RecordShaper } from './records.js';
import { idFormOf, randomId, requestIdForm, Times } from './values.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

export type { SentItem } from './events.js';

export interface RandomShapes extends Shapes {
  readonly seed: number;
  /** What the emulator sent that a person should see (text, tasks, files, history texts, addresses), latest 10,000. */
  readonly sent: SentLog;
  /** `prefix#n` for an id this emulator made (`job#12`), to compare two emulators' logs; else undefined. */
  canonicalId(value: unknown): string | undefined;
  /** The choices of this seed (and the field places drawn so far), for replaying a failure. */
  describe(): Rec;
}

/** Answers that carry an address a script prints (an upload's, a publish's). */
const ADDRESSED = new Set(['upload_storage_file', 'publish_site', 'get_publish_status']);

/** The site chat error codes (`data.code`; the list is not shown) in the seed's spelling. */
const CODE_STYLES = {
  snake: (c: string) => c,
  upper: (c: string) => c.toUpperCase(),
  kebab: (c: string) => c.replace(/_/g, '-'),
  camel: (c: string) => c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase()),
  prefixed: (c: string) => `E_${c.toUpperCase()}`,
} as const;

export function randomShapes(seed: number): RandomShapes {
  const draw = new Draw(seed);
  const names = new Names(draw);
  const times = new Times(draw);
  const records = new RecordShaper(draw, names, times);
  const sent = new SentLog();
  const runs = new RunShaper(draw, records, sent);
  const args = new Arguments(draw);
  const cursors = draw.chance('cursors:numeric', 0.4) ? new NumericCursors() : null;
  const codeStyle = draw.pick('chat-code', Object.keys(CODE_STYLES) as Array<keyof typeof CODE_STYLES>);
  const envelopeExtras = draw.chance('envelope:extras', 0.5);
  const made = new Map<string, string>();

  const note = (method: string, data: unknown) => {
    if (!isRecord(data)) return;
    if (method === 'list_messages' && Array.isArray(data.items))
      for (const m of data.items.filter(isRecord))
        sent.add({ kind: 'message', text: String(m.text ?? ''), jobId: typeof m.jobId === 'string' ? m.jobId : null });
    if (ADDRESSED.has(method) && typeof data.url === 'string')
      sent.add({ kind: 'address', text: data.url, jobId: null });
  };

  return {
    name: `random:${seed}`,
    seed,
    sent,
    formatId(prefix, n) {
      const id = randomId(draw, prefix, n);
      if (made.size < 200_000) made.set(id, `${prefix}#${n}`);
      return id;
    },
    requestId: () => (requestIdForm(draw) === 'uuid' ? randomUUID() : undefined),
    incoming(method, sentArgs) {
      const taken = args.incoming(method, sentArgs);
      return cursors ? cursors.incoming(method, taken) : taken;
    },
    outgoing(method, data) {
      if (method === 'GET /v1/openapi.json') return args.openApi(data);
      let out = method === 'GET /v1/tools' ? args.tools(data) : data;
      if (method === 'get_job' && isRecord(out)) out = runs.job(out);
      note(method, out);
      out = records.shape(method, out);
      return cursors ? cursors.outgoing(out) : out;
    },
    refusal(_method, data) {
      if (isRecord(data) && typeof data.code === 'string') return { ...data, code: CODE_STYLES[codeStyle](data.code) };
      return data;
    },
    envelope: (body, requestId, at) =>
      !envelopeExtras || 'requestId' in body
        ? body
        : { ...body, requestId, servedAt: times.format('envelope', 'servedAt', at) },
    seedCore() {},
    canonicalId: (value) =>
      typeof value === 'string' || typeof value === 'number' ? made.get(String(value)) : undefined,
    describe() {
      const idForms: Rec = {};
      for (const prefix of ['job', 'msg', 'qmsg', 'dep', 'sbk', 'srs', 'cbk', 'site', 'ws'])
        idForms[prefix] = idFormOf(draw, prefix);
      const argumentsTaken: Rec = {};
      for (const m of METHOD_INDEX_NAMES) {
        const shaped = args.of(m);
        if (shaped) argumentsTaken[m] = shaped.choices.filter((c) => c.theirs !== c.ours || c.required);
      }
      return {
        seed,
        ids: { ...idForms, requestId: requestIdForm(draw) },
        times: { main: times.main, offsetMinutes: times.offsetMinutes },
        states: { beforeRunning: runs.before, afterRunning: runs.after },
        events: runs.forms(),
        extraFields: records.extraFields(),
        envelopeExtras,
        numericCursors: cursors !== null,
        chatCodes: codeStyle,
        names: { case: names.nameCase, wrapper: names.wrapper },
        arguments: argumentsTaken,
        moved: names.moved(),
      };
    },
  };
}
