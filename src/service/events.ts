// The readers of a run's events (get_job `events`): each event is `event` (its kind) and `data`,
// as the reference states; the `data` of every kind but ask_user is not shown. Each reader
// returns a typed value or says it could not read one (read.ts), so the transcript shows what
// it can and says what it cannot, once. Paths are from the event's `data` (`.`: data itself).
import { stringifyJson } from '../io/json-deep.js';
import { field, isRecord, locate, readField, recordOf, type Read, resource, unread, type Unread } from './read.js';
import { asId, asNumber, asObject, asText, onlyText, readText, TEXT_KEYS } from './values.js';

export interface JobEvent {
  event: string;
  data?: unknown;
  [extra: string]: unknown;
}

/** An event as received; one without an `event` string is of kind `unknown`. */
export function asEvent(raw: unknown): JobEvent {
  const r = recordOf(raw);
  const kind = r.event;
  // A record without `data` carries none; anything else that is not a record is taken as its data.
  const data = 'data' in r ? r.data : isRecord(raw) ? undefined : raw;
  return { ...r, event: typeof kind === 'string' && kind ? kind : 'unknown', data };
}

export type TodoStatus = 'pending' | 'in_progress' | 'done' | 'cancelled';
export interface Todo {
  key: string;
  title: string;
  status: TodoStatus;
}
export type FileOp = 'added' | 'changed' | 'deleted';
export interface FileChange {
  path: string;
  op: FileOp;
}
/** An ask_user question; `question` unread when its words cannot be read (the run still waits for an answer). */
export interface Question {
  question: Read<string>;
  options: string[];
}

const list = (v: unknown) => (Array.isArray(v) ? v : undefined);
const TEXT_PATHS = [...TEXT_KEYS, '.'];

/** Every field of every event the CLI reads: the catalogue doctor and the docs list. */
export const EVENT_DATA = resource('job event data', 'get_job data.events[].data', {
  text: field('text', TEXT_PATHS, readText),
  filePath: field(
    'the file path',
    ['path', 'filePath', 'file', 'filename', 'fileName', 'name', '*.path', '*.filePath', '.'],
    asText,
  ),
  fileChange: field(
    'the kind of change',
    ['action', 'changeType', 'change_type', 'change', 'kind', 'op', 'operation', 'status', 'type'],
    asText,
  ),
  todoList: field('the task list', ['items', 'todos', 'tasks', 'list', '.', '*', '*.*'], list),
  todoTitle: field('a task’s title', ['title', 'content', 'text', 'name', 'description', '.'], readText),
  todoStatus: field('a task’s status', ['status', 'state'], asText),
  todoKey: field('a task’s id', ['id', '_id'], asId),
  toolName: field('the step’s name', ['name', 'tool', 'toolName'], asText, ['name']),
  toolInput: field('the step’s input', ['input', 'args', 'arguments', 'params'], asObject, ['input']),
  toolTarget: field('what the step works on', ['path', 'file', 'query', 'url', 'command', 'name'], asText),
  question: field('the question', ['input.question'], readText, ['input.question']),
  options: field('the suggested answers', ['input.options'], list, ['input.options']),
  resultSummary: field(
    'the step’s result',
    ['summary', 'message', 'text', 'title', 'path', 'name', 'output', 'result', '.'],
    readText,
  ),
  credits: field('the credits', ['credits', 'amount', 'creditsUsed', 'used', 'cost', '.'], asNumber),
  errorMessage: field('the error’s message', ['message', 'error', 'detail', 'reason', 'text', '.'], readText),
  errorCode: field('the error’s code', ['code', 'type', 'errorCode', 'error_code'], asText),
});

const F = EVENT_DATA.fields;

/** The text piece of a `text` event. */
export function readTextEvent(data: unknown): Read<string> {
  // No data at all is no text, not text that could not be read.
  if (data === undefined || data === null) return '';
  return readField(data, F.text);
}

/** A file change: its path, and whether it was added, changed or deleted (unknown words: changed). */
export function readFileEvent(data: unknown, kind: string): Read<FileChange> {
  const path = locate(data, F.filePath)?.value;
  if (!path) return unread('a file change', F.filePath.paths, data);
  if (kind === 'file_deleted') return { path, op: 'deleted' };
  const how = (locate(data, F.fileChange)?.value ?? '').toLowerCase();
  const r = recordOf(data);
  if (/^(add|added|create|created|new)$/.test(how) || r.created === true || r.isNew === true)
    return { path, op: 'added' };
  if (/^(delete|deleted|remove|removed)$/.test(how)) return { path, op: 'deleted' };
  return { path, op: 'changed' };
}

function todoStatus(item: Record<string, unknown>): TodoStatus {
  if (item.done === true || item.completed === true) return 'done';
  const s = (locate(item, F.todoStatus)?.value ?? '').toLowerCase().replace(/[\s-]/g, '_');
  if (/^(done|completed?|finished|succeeded|success)$/.test(s)) return 'done';
  if (/^(in_progress|running|active|doing|started)$/.test(s)) return 'in_progress';
  if (/^(cancell?ed|skipped)$/.test(s)) return 'cancelled';
  return 'pending';
}

/** The whole task list a `todos` event carries; unread when the list, or a task's title, cannot be read. */
export function readTodosEvent(data: unknown): Read<Todo[]> {
  const items = locate(data, F.todoList)?.value;
  if (!items) return unread('a task list', F.todoList.paths, data);
  const todos: Todo[] = [];
  // A task's own words: under a title's usual names, else its only text besides its status and id.
  const besides = (key: string) => F.todoStatus.paths.includes(key) || F.todoKey.paths.includes(key);
  for (const raw of items) {
    const item = recordOf(raw);
    const title = locate(raw, F.todoTitle)?.value ?? (isRecord(raw) ? onlyText(raw, 0, besides) : undefined);
    if (title === undefined) return unread('a task list', F.todoTitle.paths, raw);
    todos.push({ key: locate(item, F.todoKey)?.value ?? title, title, status: todoStatus(item) });
  }
  return todos;
}

/** A step's name, input and what it works on (in its input), for the transcript's step line. */
export function readToolCall(data: unknown): { name: string; input: Record<string, unknown>; target?: string } {
  const input = locate(data, F.toolInput)?.value ?? {};
  return { name: locate(data, F.toolName)?.value ?? 'step', input, target: locate(input, F.toolTarget)?.value };
}

/** A suggested answer: text, or a record's label. */
const optionText = (o: unknown): string | undefined =>
  asText(o) ?? readText(o) ?? (isRecord(o) ? (readText(o.label) ?? readText(o.title)) : undefined);

/**
 * The one shape the reference states: data.name `ask_user`, the question in data.input.question,
 * up to four suggested answers in data.input.options. Undefined for any other step.
 */
export function readQuestion(data: unknown): Question | undefined {
  if (recordOf(data).name !== 'ask_user') return undefined;
  const options = (locate(data, F.options)?.value ?? [])
    .map(optionText)
    .filter((o): o is string => o !== undefined && o !== '')
    .slice(0, 4);
  return { question: readField(data, F.question), options };
}

/** What a step's result says: failed or not, and a summary when one can be read. */
export function readToolResult(data: unknown): { failed: boolean; summary?: string } {
  const r = recordOf(data);
  const failed =
    r.ok === false || r.success === false || r.isError === true || (r.error !== undefined && r.error !== null);
  if (failed)
    return { failed, summary: readText(r.error) ?? readText(recordOf(r.error).message) ?? readText(r.message) };
  return { failed, summary: locate(data, F.resultSummary)?.value };
}

export function readCredits(data: unknown): number | undefined {
  return locate(data, F.credits)?.value;
}

/** A failed run's message, from an `error` event or the job's `error` object (its fields are not shown). */
export function readErrorMessage(data: unknown, depth = 0): Read<string> {
  const found = locate(data, F.errorMessage)?.value;
  if (found !== undefined && found.trim() !== '') return found;
  const nested = recordOf(data).error;
  return isRecord(nested) && depth < 3
    ? readErrorMessage(nested, depth + 1)
    : unread('the error’s message', F.errorMessage.paths, data);
}

export function readErrorCode(data: unknown): string | undefined {
  return locate(data, F.errorCode)?.value;
}

/** A one-line summary of any data, for steps and kinds the CLI does not know: a known field, else the JSON. */
export function summarize(data: unknown, max = 100): string {
  let text: string;
  if (data === undefined || data === null) text = '';
  else if (typeof data === 'string') text = data;
  else text = locate(data, F.resultSummary)?.value ?? stringifyJson(data) ?? '';
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export type { Unread };
