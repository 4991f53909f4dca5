// The shape a command needs from a method's answer. The client checks what every answer must
// have (`success: true` and a `data` field); what `data` must hold depends on the method, so a
// command asks here: a listing needs a list, a single thing needs a record. Anything else is an
// error naming what was missing, never "no sites" read from a `{}` (docs/scripting.md "How
// calls are made").
import { ApiError, requestNote } from '../errors.js';
import type { CallResult } from './call.js';
import { findList, kindOf } from '../service/page.js';

export { findList, LIST_KEYS } from '../service/page.js';

/** Deeper than this, an answer is not a plausible record (and printing it would exhaust the stack). */
export const ANSWER_NESTING_MAX = 256;

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

const what = kindOf;

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
