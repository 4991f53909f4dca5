// A run in the random shapes: get_job's fields keep their names (the reference states them), but
// the run may read a state the reference does not list before and after `running` (both
// ongoing), and each event's `data` comes in a form the seed draws per kind: text as a string,
// content blocks or a wrapped value under one of several names; a task list in one of several
// forms; a file change with its path plain, nested, split or as a URI. An `ask_user` call keeps
// its stated `name` and `input`. What the run said (text, tasks, files) is noted in `sent`, so a
// test can check that a client printed it or said it could not read it.
import {
  FILE_FORMS,
  SPELLINGS,
  STATES_AFTER,
  STATES_BEFORE,
  TEXT_FORMS,
  TEXT_KEYS,
  TODO_FORMS,
  type TextForm,
} from './catalogue.js';
import type { Draw } from './draw.js';
import type { RecordShaper } from './records.js';
import { formText, respell } from './values.js';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});

/** Something the emulator sent a person should see: a piece of text, a task, a file's path, a history text, an address. */
export interface SentItem {
  kind: 'text' | 'todo' | 'file' | 'message' | 'address';
  text: string;
  /** The run it belongs to (the job id as the emulator made it). */
  jobId: string | null;
}

/** The latest sent items (a long-running emulator keeps the last 10,000). */
export class SentLog {
  items: SentItem[] = [];
  add(item: SentItem): void {
    this.items.push(item);
    if (this.items.length > 10_000) this.items.splice(0, this.items.length - 10_000);
  }
  clear(): void {
    this.items = [];
  }
}

/** Puts a value at a dotted name in a new object. */
function at(place: string, value: unknown, more: Rec = {}): Rec {
  const segs = place.split('.');
  let v = value;
  for (const seg of segs.reverse()) v = { [seg]: v };
  return { ...(v as Rec), ...more };
}

export class RunShaper {
  readonly before: string | null;
  readonly after: string | null;
  /** Runs whose last event (what it cost) went out: they read the after-state until they end. */
  private readonly ending = new Set<string>();

  constructor(
    private readonly draw: Draw,
    private readonly records: RecordShaper,
    private readonly sent: SentLog,
  ) {
    this.before = draw.weighted('state:before', [[null, 1], ...STATES_BEFORE.map((s) => [s, 1] as const)]);
    this.after = draw.weighted('state:after', [[null, 1], ...STATES_AFTER.map((s) => [s, 1] as const)]);
  }

  /** The forms this seed gives each kind of event data. */
  forms() {
    return {
      textKey: this.draw.pick('event:text:key', TEXT_KEYS),
      textForm: this.draw.pick('event:text:form', TEXT_FORMS),
      textMixed: this.draw.chance('event:text:mixed', 0.25),
      todos: this.draw.pick('event:todos:form', TODO_FORMS),
      files: this.draw.pick('event:files:form', FILE_FORMS),
    };
  }

  /** get_job's data: the state, then each event. */
  job(data: Rec): Rec {
    const jobId = String(data.jobId);
    const events = Array.isArray(data.events) ? data.events.map(rec) : [];
    const first = (typeof data.cursor === 'number' ? data.cursor : events.length) - events.length + 1;
    if (events.some((e) => e.event === 'credits_used')) this.remember(jobId);
    let state = data.state;
    if (state === 'running' && this.before && data.cursor === 0) state = this.before;
    else if (state === 'running' && this.after && this.ending.has(jobId)) state = this.after;
    return { ...data, state, events: events.map((e, i) => this.event(e, jobId, first + i)) };
  }

  private remember(jobId: string): void {
    this.ending.add(jobId);
    if (this.ending.size > 10_000) this.ending.delete(this.ending.values().next().value as string);
  }

  private event(ev: Rec, jobId: string, seq: number): Rec {
    const kind = String(ev.event);
    const data = rec(ev.data);
    const shaped = this.data(kind, data, jobId, seq);
    if (kind !== 'tool_call' || data.name !== 'ask_user')
      this.records.addExtras(`event ${kind}`, 'get_job', data, shaped);
    const out: Rec = { ...ev, data: shaped };
    if (this.draw.chance('event:seq', 0.5)) out.seq = seq;
    return out;
  }

  private data(kind: string, data: Rec, jobId: string, seq: number): Rec {
    const f = this.forms();
    switch (kind) {
      case 'text': {
        const text = String(data.text ?? '');
        this.sent.add({ kind: 'text', text, jobId });
        const key = f.textMixed ? this.draw.pick(`event:text:key:${seq}`, TEXT_KEYS) : f.textKey;
        const form: TextForm = f.textMixed ? this.draw.pick(`event:text:form:${seq}`, TEXT_FORMS) : f.textForm;
        return at(key, formText(text, form));
      }
      case 'todos':
        return this.todos(Array.isArray(data.items) ? data.items.map(rec) : [], jobId, f.todos);
      case 'file_changed':
      case 'file_deleted':
        return this.file(kind, data, jobId, f.files);
      case 'tool_call':
        if (data.name === 'ask_user') {
          const { name, input, ...rest } = data;
          return { name, input, ...rec(this.records.shape(`get_job:event ${kind}`, rest)) };
        }
        return rec(this.records.shape(`get_job:event ${kind}`, data));
      default:
        return rec(this.records.shape(`get_job:event ${kind}`, data));
    }
  }

  private todos(items: Rec[], jobId: string, form: (typeof TODO_FORMS)[number]): Rec {
    for (const t of items) this.sent.add({ kind: 'todo', text: String(t.title), jobId });
    const status = (t: Rec) => respell(this.draw, 'todo', 'status', t.status);
    const done = (t: Rec) => t.status === 'done';
    switch (form) {
      case 'items':
        return { items: items.map((t) => ({ ...t, status: status(t) })) };
      case 'todos':
        return { todos: items.map((t) => ({ content: t.title, status: status(t) })) };
      case 'entries':
        return { list: { entries: items.map((t) => ({ text: t.title, done: done(t) })) } };
      case 'tasks':
        return { tasks: items.map((t) => ({ taskId: t.id, label: t.title, state: status(t) })) };
      case 'wrappedTitles':
        return { items: items.map((t) => ({ id: t.id, title: { text: t.title }, status: status(t) })) };
      case 'markdown':
        return { markdown: items.map((t) => `- [${done(t) ? 'x' : ' '}] ${t.title}`).join('\n') };
    }
  }

  private file(kind: string, data: Rec, jobId: string, form: (typeof FILE_FORMS)[number]): Rec {
    const path = String(data.path);
    this.sent.add({ kind: 'file', text: path, jobId });
    const action = data.action === undefined ? {} : { action: respell(this.draw, 'file', 'action', data.action) };
    const change = (key: string) => (data.action === undefined ? {} : { [key]: action.action });
    const slash = path.lastIndexOf('/');
    switch (form) {
      case 'path':
        return { path, ...action };
      case 'filePath':
        return { filePath: path, ...change('changeType') };
      case 'nested':
        return { file: { path }, ...change('op') };
      case 'split':
        return {
          file: { dir: slash < 0 ? '.' : path.slice(0, slash), name: path.slice(slash + 1) },
          ...change('kind'),
        };
      case 'list':
        return { paths: [path], ...change(kind === 'file_deleted' ? 'op' : 'action') };
      case 'uri':
        return { uri: `file:///workspace/${path}`, ...action };
    }
  }
}

/** The word pools of the task statuses and file actions (for the docs' catalogue). */
export const EVENT_SPELLINGS = { todo: SPELLINGS.status, file: SPELLINGS.action };
