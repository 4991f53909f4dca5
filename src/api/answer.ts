// The shape a command needs from a method's answer. The client checks what every answer must
// have (`success: true` and a `data` field); what `data` must hold depends on the method, so a
// command asks here: a listing needs a list, a single thing needs a record. Anything else is an
// error naming what was missing, never "no sites" read from a `{}` (docs/scripting.md "How
// calls are made").
import { ApiError, requestNote } from '../errors.js';
import type { CallResult } from './client.js';

/** Where a page's list sits in `data` when it is not the data itself (the obvious alternatives). */
const LIST_KEYS = ['items', 'data', 'results', 'records', 'rows', 'entries'];

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
  const data = result.envelope.data;
  return new ApiError(
    { status: result.status, method, message: '', requestId: result.requestId, data, envelope: result.envelope },
    `The answer to ${method} holds no ${needed} (its data is ${what(data)}); nothing was taken from it.${requestNote(result.requestId)}`,
  );
}

/**
 * The list of records of a listing answer: `data` itself, or the one list inside it (under a
 * well-known key, or the only list field). An answer without one is an error, not an empty list.
 */
export function answerList(method: string, result: CallResult): unknown[] {
  const data = result.envelope.data;
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') {
    const rec = data as Record<string, unknown>;
    for (const k of LIST_KEYS) if (Array.isArray(rec[k])) return rec[k] as unknown[];
    const lists = Object.values(rec).filter(Array.isArray);
    if (lists.length === 1) return lists[0] as unknown[];
  }
  throw shapeError(method, result, 'list of records');
}

/** The record of an answer about one thing: `data` must be an object (not null, text or a list). */
export function answerRecord(method: string, result: CallResult): Record<string, unknown> {
  const data = result.envelope.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>;
  throw shapeError(method, result, 'record');
}
