// The body of `sitebuilder api`: --input gives the whole JSON object, then -f (text) and -F
// (typed) fields are set on it. Keys may nest like gh's: `importSource[SourceUrl]=…`,
// `paths[]=a/ -F paths[]=b.txt`.
import { LIMITS } from '../../api/limits.js';
import { UsageError } from '../../errors.js';
import { readTextFile } from '../../io/read-text-file.js';

export type ReadText = (source: string) => Promise<string>;

export interface FieldInput {
  raw: string;
  /** -F: numbers, true, false, null, JSON and @file are converted; -f: always text. */
  typed: boolean;
  /** Position on the command line. */
  order?: number;
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `name`, `name[sub]`, `name[]`, `name[sub][]` → ['name', 'sub', ''] ('' appends to a list). */
export function parseKey(key: string, flag: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m)
    throw new UsageError(
      `${flag} takes key=value with a key like name, name[sub] or name[]; ${JSON.stringify(key)} is not one.`,
    );
  const rest = [...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]);
  rest.slice(0, -1).forEach((part) => {
    if (part === '')
      throw new UsageError(
        `${flag}: [] may only end a key, as in name[]; ${JSON.stringify(key)} has it in the middle.`,
      );
  });
  return [m[1], ...rest];
}

/** A -F value: true, false, null, a number, JSON ({…}, […], "…"), @file (its text; @- standard input), else text. */
export async function typedValue(value: string, key: string, readText: ReadText): Promise<unknown> {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (NUMBER.test(value)) return Number(value);
  if (value.startsWith('@')) return readText(value.slice(1));
  if (/^[[{"]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch (err) {
      throw new UsageError(
        `-F ${key}: ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)} is not valid JSON (${(err as Error).message}); use -f for plain text.`,
      );
    }
  }
  return value;
}

function setPath(body: Record<string, unknown>, path: string[], value: unknown, key: string): void {
  let cur: Record<string, unknown> | unknown[] = body;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    const last = i === path.length - 1;
    if (Array.isArray(cur)) {
      if (last) cur.push(value);
      else {
        const next = path[i + 1] === '' ? [] : {};
        cur.push(next);
        cur = next;
      }
      continue;
    }
    if (last) {
      cur[part] = value;
      return;
    }
    const wantList = path[i + 1] === '';
    const existing = cur[part];
    if (
      existing === undefined ||
      existing === null ||
      typeof existing !== 'object' ||
      Array.isArray(existing) !== wantList
    ) {
      if (existing !== undefined) throw new UsageError(`The field ${key} conflicts with an earlier value of ${part}.`);
      cur[part] = wantList ? [] : {};
    }
    cur = cur[part] as Record<string, unknown> | unknown[];
  }
}

/** Sets each field on the body (mutated and returned). */
export async function applyFields(
  body: Record<string, unknown>,
  fields: FieldInput[],
  readText: ReadText,
): Promise<Record<string, unknown>> {
  for (const { raw, typed } of fields) {
    const flag = typed ? '-F' : '-f';
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} takes key=value, not ${JSON.stringify(raw)}.`);
    const key = raw.slice(0, eq);
    const text = raw.slice(eq + 1);
    const path = parseKey(key, flag);
    setPath(body, path, typed ? await typedValue(text, key, readText) : text, key);
  }
  return body;
}

/** The --input body: a JSON object from a file or standard input ('-'). */
export async function readInputBody(source: string, readText: ReadText): Promise<Record<string, unknown>> {
  const text = await readText(source);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `--input ${source === '-' ? '(standard input)' : source} is not valid JSON: ${(err as Error).message}.`,
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`--input must hold one JSON object with the arguments, as in {"projectId": "…"}.`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads a file, or all of standard input for '-' (at most once: a second '-' is refused). */
export function textReader(stdin: NodeJS.ReadableStream): ReadText {
  let stdinUsed = false;
  return async (source) => {
    if (source === '-') {
      if (stdinUsed) throw new UsageError('Standard input can be read only once (one --input - or one @-).');
      stdinUsed = true;
      const chunks: Buffer[] = [];
      for await (const c of stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    }
    if (source === '') throw new UsageError('@ must be followed by a file name, or - for standard input.');
    return readTextFile(source, { flag: '', maxBytes: LIMITS.bodyBytesMax });
  };
}
