// Listings over the six paging patterns of the service (docs/scripting.md "Listings"). Pages
// are fetched one at a time and their records yielded as they come, so 100,000 sites stream
// with flat memory; each page asks for the largest page the method takes. A listing always
// ends: at the end its pages state, on an empty page, or with an error saying it is incomplete
// (a page that repeats the one before, a cursor handed out twice, an empty page that says more
// follow, or PAGE_BOUND pages). Paging tokens are sent back exactly as they came.
import { ApiError, requestNote } from '../errors.js';
import { answerError, answerList, findList } from './answer.js';
import type { CallResult, Envelope } from './call.js';
import type { ApiClient } from './client.js';
import { stringifyJson } from '../io/json-deep.js';
import { formatCount } from './limits.js';
import type { CallArgs } from './method-args.js';
import { methodInfo } from './method-index.js';
import { decideNext, detectPattern, type Verdict } from './page-fields.js';
import type { ListingPattern } from './registry-terms.js';

export { detectPattern } from './page-fields.js';

type Args = Record<string, unknown>;

/** A listing stops with an error after this many pages: 10,000,000 records at 1,000 a page. */
export const PAGE_BOUND = 10_000;

export interface PaginateOptions {
  /** The pattern; by default the registry's for the method. */
  pattern?: ListingPattern;
  /** Without a pattern (a method the registry does not know): read it from the first page. */
  detect?: boolean;
  /** Stop after this many records (no page is fetched past them). */
  max?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Called with each page's envelope (for totals). */
  onPage?: (envelope: Envelope, pageIndex: number) => void;
  /** The page bound (tests); PAGE_BOUND by default. */
  maxPages?: number;
}

export interface Page {
  items: unknown[];
  result: CallResult;
  /** 0 for the first page. */
  index: number;
  pattern?: ListingPattern;
}

/** The records of a page's data (findList); an error naming what is missing or ambiguous. */
export function itemsOf(data: unknown, method = ''): unknown[] {
  const found = findList(data);
  if (Array.isArray(found)) return found;
  throw answerError(method, undefined, found.problem);
}

/** The largest page a method takes: the registry's bound of its `limit` argument. */
export function largestPage(method: string): number | undefined {
  const limit = methodInfo(method)?.schema.properties?.limit;
  return typeof limit?.maximum === 'number' ? limit.maximum : undefined;
}

/** `limit` is our guess for most methods ("some take limit"): a 400 about it means this one does not. */
const refusesLimit = (err: unknown) =>
  err instanceof ApiError && err.status === 400 && /\blimit\b/i.test(err.serviceMessage || err.message);

const records = (n: number) => `${formatCount(n)} record${n === 1 ? '' : 's'}`;

function incomplete(
  method: string,
  result: CallResult,
  what: string,
  read: number,
  advice = ' Try again later, and report it if it goes on.',
): ApiError {
  return new ApiError(
    {
      status: result.status,
      method,
      message: '',
      requestId: result.requestId,
      data: null,
      envelope: result.envelope,
    },
    `${method} ${what}; stopped after ${records(read)}, so the listing is incomplete.${advice}${requestNote(result.requestId)}`,
  );
}

/** What tells two pages apart: their records' ids, else the records themselves. */
function signature(items: unknown[]): string {
  const ids = items.map((r) =>
    r && typeof r === 'object' ? ((r as Args)._id ?? (r as Args).id ?? (r as Args).key) : undefined,
  );
  return stringifyJson(ids.every((id) => id !== undefined && id !== null) ? ids : items);
}

/** The argument that moves a listing on, for the error that says it was ignored. */
const movedBy = (pattern: ListingPattern | undefined) =>
  pattern === 'offset' || pattern === 'offsetHasMore'
    ? 'offset'
    : pattern === 'page'
      ? 'page'
      : pattern === 'token'
        ? 'token'
        : 'cursor';

/** Every page of a listing, in order, until it ends (see the head of this file). */
export function pages<const M extends string>(
  client: ApiClient,
  method: M,
  args: CallArgs<M>,
  options?: PaginateOptions,
): AsyncGenerator<Page>;
export async function* pages(
  client: ApiClient,
  method: string,
  firstArgs: Args = {},
  options: PaginateOptions = {},
): AsyncGenerator<Page> {
  let pattern = options.pattern ?? methodInfo(method)?.listing ?? undefined;
  if (!pattern && !options.detect) throw new Error(`${method} is not a listing method`);
  const bound = options.maxPages ?? PAGE_BOUND;
  let args: Args = pattern === 'page' && firstArgs.page === undefined ? { ...firstArgs, page: 1 } : { ...firstArgs };
  const size = largestPage(method);
  let addedLimit = size !== undefined && args.limit === undefined;
  if (addedLimit) args.limit = Math.min(size!, Math.max(1, options.max ?? size!));
  const seen = new Set<string>();
  let previous: string | undefined;
  let read = 0;
  let longest = 0;
  // From the second page on, what the service handed back goes back as it came, even where the
  // reference types the argument (an offset or page as text): the rest was checked on page 1
  // (by tsc too: CallArgs<M>).
  const call = (a: Args, index: number) =>
    client.call(method, a, { signal: options.signal, headers: options.headers, skipValidation: index > 0 });
  for (let index = 0; ; index++) {
    seen.add(stringifyJson(args) ?? '');
    let result: CallResult;
    try {
      result = await call(args, index);
    } catch (err) {
      if (!(index === 0 && addedLimit && refusesLimit(err))) throw err;
      // The method takes no `limit`: the first page again, at the service's own page size.
      const { limit: _dropped, ...rest } = args;
      args = rest;
      addedLimit = false;
      seen.add(stringifyJson(args) ?? '');
      result = await call(args, 0);
    }
    options.onPage?.(result.envelope, index);
    const items = answerList(method, result);
    if (options.detect && !pattern) pattern = detectPattern(result.envelope);
    const sig = items.length > 0 ? signature(items) : undefined;
    if (sig !== undefined && sig === previous)
      throw incomplete(
        method,
        result,
        `sent page ${index + 1} with the same records as page ${index} (it seems to ignore \`${movedBy(pattern)}\`)`,
        read,
      );
    const verdict = pattern
      ? decideNext(pattern, args, result.envelope, { received: items.length, before: read, longest })
      : ({ end: true } as Verdict);
    if (items.length === 0 && 'next' in verdict && verdict.stated)
      throw incomplete(method, result, `answered an empty page ${index + 1} although it says more follow`, read);
    yield { items, result, index, pattern };
    read += items.length;
    longest = Math.max(longest, items.length);
    if ('end' in verdict) {
      if (verdict.problem) throw incomplete(method, result, verdict.problem, read);
      return;
    }
    if (items.length === 0) return;
    if (seen.has(stringifyJson(verdict.next) ?? ''))
      throw incomplete(method, result, `handed out the same ${movedBy(pattern)} twice (page ${index + 1})`, read);
    if (index + 1 >= bound)
      throw incomplete(
        method,
        result,
        `still had more after ${formatCount(bound)} pages, the most a listing reads`,
        read,
        '',
      );
    args = verdict.next;
    previous = sig;
  }
}

/** The records of a listing, one at a time, across pages. */
export function paginate<const M extends string, T = unknown>(
  client: ApiClient,
  method: M,
  args: CallArgs<M>,
  options?: PaginateOptions,
): AsyncGenerator<T>;
export async function* paginate<T = unknown>(
  client: ApiClient,
  method: string,
  args: Args = {},
  options: PaginateOptions = {},
): AsyncGenerator<T> {
  if (options.max !== undefined && options.max <= 0) return;
  let yielded = 0;
  for await (const page of pages(client, method, args, options)) {
    for (const item of page.items) {
      yield item as T;
      if (options.max !== undefined && ++yielded >= options.max) return;
    }
  }
}

/**
 * A page-numbered listing as the list commands show it: one page (the first by default), or
 * every page with `all`. `more`: a page follows the one shown (true), none does (false), or
 * the page does not say (`maybe`: it has no total, and was not short).
 */
export function listByPage<const M extends string>(
  client: ApiClient,
  method: M,
  args: CallArgs<M>,
  opts: { page?: number; all?: boolean; signal?: AbortSignal },
): Promise<{ items: unknown[]; more: boolean | 'maybe' }>;
export async function listByPage(
  client: ApiClient,
  method: string,
  args: Args,
  opts: { page?: number; all?: boolean; signal?: AbortSignal },
): Promise<{ items: unknown[]; more: boolean | 'maybe' }> {
  if (opts.all) {
    const items: unknown[] = [];
    for await (const item of paginate(client, method, args, { pattern: 'page', signal: opts.signal })) items.push(item);
    return { items, more: false };
  }
  const page = opts.page ?? 1;
  const pageArgs = { ...args, page };
  const result = await client.call(method, pageArgs, { signal: opts.signal });
  const items = answerList(method, result);
  const before = page === 1 ? 0 : undefined;
  const verdict = decideNext('page', pageArgs, result.envelope, { received: items.length, before, longest: 0 });
  return { items, more: 'end' in verdict ? false : verdict.stated ? true : 'maybe' };
}
