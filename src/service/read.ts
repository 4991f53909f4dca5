// The service model's core (docs/real-service.md "The service model"): the one place that looks
// into the service's answers. A field is read under paths tried in order; what is found is
// returned typed, and what is not is an explicit *unread* marker that keeps the raw value and
// says where it looked, so a command can say so instead of filling the gap. Everything here is
// pure and imports nothing of the CLI but the JSON writer of any depth, so any layer may use it.
import { stringifyJson } from '../io/json-deep.js';

export type AnyRecord = Record<string, unknown>;

/** Something the model looked for and could not read: what, where it looked, and what was there. */
export interface Unread {
  readonly unread: true;
  /** What it is, in words: "text", "the job id". */
  readonly what: string;
  /** The paths looked at, relative to the record read (`data.` is added by the readers of events). */
  readonly looked: readonly string[];
  /** The value it looked in, as the service sent it. */
  readonly raw: unknown;
}

/** A value read from an answer, or the marker saying it could not be. */
export type Read<T> = T | Unread;

export function unread(what: string, looked: readonly string[], raw: unknown): Unread {
  return { unread: true, what, looked, raw };
}

export function isUnread(value: unknown): value is Unread {
  return typeof value === 'object' && value !== null && (value as { unread?: unknown }).unread === true;
}

/** The value, or undefined where it was not read (for an optional cell that is reported apart). */
export function known<T>(value: Read<T>): T | undefined {
  return isUnread(value) ? undefined : value;
}

export function isRecord(value: unknown): value is AnyRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object itself, or an empty one: never a crash on a missing or odd value. */
export function recordOf(value: unknown): AnyRecord {
  return isRecord(value) ? value : {};
}

/** A field of a resource: what it is, where it is looked for, and how a value becomes a T. */
export interface Field<T> {
  what: string;
  /**
   * Where it is looked for, in order: dotted paths from the record (`job.jobId`), `.` for the
   * record itself, `*` for every key one level down, taken only when all that match agree (`*.url`).
   * A name matches its own key, else the only key spelled the same in another case or word
   * separation (`Url`, `started_at`).
   */
  paths: readonly string[];
  /** The paths the reference states; the others are not shown and may differ on the real service. */
  stated: readonly string[];
  /** The value at a path as a T; undefined when it is not one (the next path is tried). */
  parse: (value: unknown) => T | undefined;
}

export function field<T>(
  what: string,
  paths: readonly string[],
  parse: (value: unknown) => T | undefined,
  stated: readonly string[] = [],
): Field<T> {
  return { what, paths, parse, stated };
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** A name as spelled in any case, with or without `_` or `-` between its words: `startedAt`, `started_at`, `StartedAt`. */
const loose = (name: string) => name.replace(/[_-]/g, '').toLowerCase();

/**
 * The key of a record a name stands for: the name itself, else the only key spelled the same
 * in another case or word separation. Two such keys are no key: which one is meant is not known.
 */
function keyOf(value: Record<string, unknown>, name: string): string | undefined {
  if (name in value) return name;
  const want = loose(name);
  const keys = Object.keys(value).filter((k) => loose(k) === want);
  return keys.length === 1 ? keys[0] : undefined;
}

/** The values at a path, each with the path of keys it was found at: several where a `*` stands for every key. */
function valuesAt(
  value: unknown,
  segments: readonly string[],
  at: string[] = [],
): Array<{ value: unknown; at: string[] }> {
  if (segments.length === 0) return [{ value, at }];
  if (!isRecord(value)) return [];
  const [head, ...rest] = segments;
  if (head === '*') return Object.entries(value).flatMap(([k, child]) => valuesAt(child, rest, [...at, k]));
  const key = keyOf(value, head);
  return key === undefined ? [] : valuesAt(value[key], rest, [...at, key]);
}

/** Where a field was found, and its value. */
export interface Found<T> {
  path: string;
  value: T;
}

/**
 * The first path holding a value the field takes, as found (the keys as the answer spells
 * them). A path with a `*` counts only when every value it matches agrees: two different
 * addresses one level down are no address.
 */
export function locate<T>(record: unknown, f: Field<T>): Found<T> | undefined {
  for (const path of f.paths) {
    const parsed = (path === '.' ? [{ value: record, at: [] as string[] }] : valuesAt(record, path.split('.')))
      .filter((v) => present(v.value))
      .map((v) => ({ value: f.parse(v.value), at: v.at }))
      .filter((v): v is { value: T; at: string[] } => v.value !== undefined);
    if (parsed.length === 0) continue;
    const first = parsed[0];
    // Several candidates must agree; one is compared with nothing (a 10 MB text is not written out twice).
    if (parsed.length > 1) {
      const one = stringifyJson(first.value);
      if (parsed.some((v, i) => i > 0 && stringifyJson(v.value) !== one)) continue;
    }
    return { path: path === '.' ? '.' : path.includes('*') ? path : first.at.join('.'), value: first.value };
  }
  return undefined;
}

export function readField<T>(record: unknown, f: Field<T>): Read<T> {
  const found = locate(record, f);
  return found ? found.value : unread(f.what, f.paths, record);
}

/** A resource: a record the service sends, named, with the fields the CLI reads of it. */
export interface Resource<F extends Record<string, Field<unknown>>> {
  /** "message record", "queue item". */
  name: string;
  /** Where it comes from: "list_messages data.items[]". */
  source: string;
  fields: F;
}

export type FieldType<F> = F extends Field<infer T> ? T : never;

/** A record as read: each field typed or unread, and the record as the service sent it. */
export type ReadRecord<F extends Record<string, Field<unknown>>> = { [K in keyof F]: Read<FieldType<F[K]>> } & {
  raw: unknown;
};

export function resource<F extends Record<string, Field<unknown>>>(
  name: string,
  source: string,
  fields: F,
): Resource<F> {
  return { name, source, fields };
}

export function readRecord<F extends Record<string, Field<unknown>>>(res: Resource<F>, raw: unknown): ReadRecord<F> {
  const out: Record<string, unknown> = { raw };
  for (const [name, f] of Object.entries(res.fields)) out[name] = readField(raw, f);
  return out as ReadRecord<F>;
}

/** A path as written in messages and docs: `data.text`, `data` for the value itself. */
export function pathText(path: string, prefix = ''): string {
  if (path === '.') return prefix.replace(/\.$/, '') || 'the value itself';
  return `${prefix}${path}`;
}

/** Says what an unread value held, for --debug: "text: looked for data.text, data.content; data held an object with a, b". */
export function describeUnread(u: Unread, prefix = ''): string {
  const looked = u.looked.map((p) => pathText(p, prefix)).join(', ');
  return `${u.what}: looked for ${looked || 'nothing'}; ${prefix ? prefix.replace(/\.$/, '') : 'it'} held ${shapeOf(u.raw)}`;
}

/** A value's shape in a few words (its keys, its type), never its content: for messages. */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isRecord(value)) {
    const keys = Object.keys(value);
    return keys.length
      ? `an object with ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`
      : 'an empty object';
  }
  return typeof value === 'string' ? 'text' : typeof value;
}
