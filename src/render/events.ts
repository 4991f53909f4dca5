// Tolerant readers of job events. The service documents the `data` of no event but `ask_user`;
// our emulator picks shapes, and the real service may differ. So each reader looks for the field
// we chose, then the obvious alternatives, and returns undefined rather than throwing
// (docs/scripting.md "Followed runs with `--json` (NDJSON)").
import { stringifyJson } from '../io/json-deep.js';
import { asRecord, pick } from '../io/records.js';

export interface JobEvent {
  event: string;
  data?: unknown;
  [extra: string]: unknown;
}

export type TodoStatus = 'pending' | 'in_progress' | 'done' | 'cancelled';

export interface Todo {
  key: string;
  title: string;
  status: TodoStatus;
}

export type FileOp = 'added' | 'changed' | 'deleted';

export interface Question {
  question: string;
  options: string[];
}

/** An event as received; anything that is not an object with an `event` string becomes `unknown`. */
export function asEvent(raw: unknown): JobEvent {
  const r = asRecord(raw);
  const kind = pick(r, 'event', 'type', 'kind');
  return { ...r, event: typeof kind === 'string' && kind ? kind : 'unknown', data: 'data' in r ? r.data : raw };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The text piece of a `text` event: data.text, or content / delta / message, or data as a string. */
export function textOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  return str(pick(data, 'text', 'content', 'delta', 'message', 'value'));
}

/**
 * A file change: its path, and whether it was added, changed or deleted, read from the names a
 * service would plausibly use (`action`, `changeType`, `kind`…); unknown words mean changed.
 */
export function fileOf(data: unknown, kind: string): { path: string; op: FileOp } | undefined {
  const path =
    typeof data === 'string' ? data : str(pick(data, 'path', 'filePath', 'file', 'filename', 'fileName', 'name'));
  if (!path) return undefined;
  if (kind === 'file_deleted') return { path, op: 'deleted' };
  const how =
    str(
      pick(data, 'action', 'changeType', 'change_type', 'change', 'kind', 'op', 'operation', 'status', 'type'),
    )?.toLowerCase() ?? '';
  if (/^(add|added|create|created|new)$/.test(how) || pick(data, 'created', 'isNew') === true)
    return { path, op: 'added' };
  if (/^(delete|deleted|remove|removed)$/.test(how)) return { path, op: 'deleted' };
  return { path, op: 'changed' };
}

function todoStatus(item: Record<string, unknown>): TodoStatus {
  if (item.done === true || item.completed === true) return 'done';
  const s = (str(pick(item, 'status', 'state')) ?? '').toLowerCase().replace(/[\s-]/g, '_');
  if (/^(done|completed?|finished|succeeded)$/.test(s)) return 'done';
  if (/^(in_progress|running|active|doing|started)$/.test(s)) return 'in_progress';
  if (/^(cancell?ed|skipped)$/.test(s)) return 'cancelled';
  return 'pending';
}

/** The whole task list a `todos` event carries: data.items, data.todos, or data as an array. */
export function todosOf(data: unknown): Todo[] | undefined {
  const list = Array.isArray(data) ? data : pick(data, 'items', 'todos', 'tasks', 'list');
  if (!Array.isArray(list)) return undefined;
  return list.map((raw, i) => {
    const item = typeof raw === 'string' ? { title: raw } : asRecord(raw);
    const title = str(pick(item, 'title', 'content', 'text', 'name', 'description')) ?? `item ${i + 1}`;
    return { key: str(pick(item, 'id', '_id')) ?? title, title, status: todoStatus(item) };
  });
}

/** A tool_call's name and input (data.name / data.tool, data.input / data.args). */
export function toolCallOf(data: unknown): { name: string; input: Record<string, unknown>; id?: string } {
  const name = str(pick(data, 'name', 'tool', 'toolName')) ?? 'step';
  const input = asRecord(pick(data, 'input', 'args', 'arguments', 'params'));
  return { name, input, id: str(pick(data, 'id', 'toolCallId', 'callId')) };
}

/** The one shape documented: data.name ask_user, data.input.question, up to four data.input.options. */
export function questionOf(data: unknown): Question | undefined {
  const call = toolCallOf(data);
  if (call.name !== 'ask_user') return undefined;
  const question = str(pick(call.input, 'question', 'prompt', 'text')) ?? '';
  const raw = pick(call.input, 'options', 'choices', 'suggestions');
  const options = Array.isArray(raw)
    ? raw
        .map((o) => str(o) ?? str(pick(o, 'label', 'text', 'value', 'title')) ?? stringifyJson(o))
        .filter((o) => o !== '')
    : [];
  return { question, options: options.slice(0, 4) };
}

export function creditsOf(data: unknown): number | undefined {
  const v = typeof data === 'number' ? data : pick(data, 'credits', 'amount', 'creditsUsed', 'used', 'cost');
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A failed run's message, from an `error` event or the job's `error` object (fields not shown). */
export function errorMessageOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  const m = str(pick(data, 'message', 'error', 'detail', 'reason', 'text'));
  if (m) return m;
  const nested = pick(data, 'error');
  return nested && typeof nested === 'object' ? errorMessageOf(nested) : undefined;
}

/** A short one-line summary of any data, for steps and for event kinds we do not know. */
export function summarize(data: unknown, max = 100): string {
  let text: string;
  if (data === undefined || data === null) text = '';
  else if (typeof data === 'string') text = data;
  else {
    const r = asRecord(data);
    const known = str(pick(r, 'summary', 'message', 'text', 'title', 'path', 'name', 'output', 'result'));
    text = known ?? stringifyJson(data);
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
