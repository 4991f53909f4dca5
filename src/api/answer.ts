// The shape a command needs from a method's answer. The client checks what every answer must
// have (`success: true` and a `data` field); what `data` must hold depends on the method, so a
// command asks here: a listing needs a list, a single thing needs a record. Anything else is an
// error naming what was missing, never "no sites" read from a `{}` (docs/scripting.md "How
// calls are made").
import { ApiError, requestNote } from '../errors.js';
import type { CallResult } from './client.js';

/**
 * Where a page's list may sit in `data` when it is not the data itself. `items` first: it is the
 * key every method of the registry uses (docs/emulator.md "Listing conventions"); then the
 * obvious alternatives, used only to choose between several lists.
 */
export const LIST_KEYS = [
  'items',
  'data',
  'results',
  'records',
  'rows',
  'entries',
  'list',
  'sites',
  'workspaces',
  'backups',
  'files',
  'messages',
];

/** Deeper than this, an answer is not a plausible record (and printing it would exhaust the stack). */
export const ANSWER_NESTING_MAX = 256;

/**
 * The list of records in a page's `data`: the data itself; else the list under `items`; else
 * its only list; else, among several, the only one under a well-known key. A string naming
 * what is wrong when there is none, or more than one to choose from.
 */
export function findList(data: unknown): unknown[] | { problem: string } {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') {
    const rec = data as Record<string, unknown>;
    if (Array.isArray(rec.items)) return rec.items;
    const lists = Object.keys(rec).filter((k) => Array.isArray(rec[k]));
    if (lists.length === 1) return rec[lists[0]] as unknown[];
    const known = lists.filter((k) => LIST_KEYS.includes(k));
    if (known.length === 1) return rec[known[0]] as unknown[];
    if (lists.length > 1)
      return {
        problem: `holds ${lists.length} lists (${lists.slice(0, 6).join(', ')}) and none under \`items\`, so which one holds the records is not known`,
      };
  }
  return { problem: `holds no list of records (its data is ${what(data)})` };
}

/** Whether a value is nested deeper than `max` levels (one iterative walk: no recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const what = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? `an object with ${
            Object.keys(value as object).length
              ? `the fields ${Object.keys(value as object)
                  .slice(0, 5)
                  .join(', ')}`
              : 'no fields'
          }`
        : typeof value === 'string'
          ? 'text'
          : typeof value;

function shapeError(method: string, result: CallResult, needed: string): ApiError {
  return answerError(method, result, `holds no ${needed} (its data is ${what(result.envelope.data)})`);
}

/** "The answer to list_sites <problem>; nothing was taken from it. (request …)" as an ApiError. */
export function answerError(
  method: string,
  result: Pick<CallResult, 'status' | 'requestId' | 'envelope'> | undefined,
  problem: string,
  /** Whether the error (and its JSON document) may carry the data: not when it cannot be printed. */
  withData = true,
): ApiError {
  const requestId = result?.requestId;
  return new ApiError(
    {
      status: result?.status ?? 200,
      method,
      message: '',
      requestId,
      data: withData ? result?.envelope.data : undefined,
      envelope: withData ? result?.envelope : undefined,
    },
    `The answer${method ? ` to ${method}` : ''} ${problem}; nothing was taken from it.${requestNote(requestId)}`,
  );
}

/**
 * The list of records of a listing answer (findList). An answer without one, with several to
 * choose from, or nested absurdly deep is an error, not an empty list.
 */
export function answerList(method: string, result: CallResult): unknown[] {
  const found = findList(result.envelope.data);
  if (!Array.isArray(found)) throw answerError(method, result, found.problem);
  if (nestedDeeperThan(found, ANSWER_NESTING_MAX))
    throw answerError(method, result, `holds records nested more than ${ANSWER_NESTING_MAX} levels deep`, false);
  return found;
}

/** The record of an answer about one thing: `data` must be an object (not null, text or a list). */
export function answerRecord(method: string, result: CallResult): Record<string, unknown> {
  const data = result.envelope.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>;
  throw shapeError(method, result, 'record');
}
