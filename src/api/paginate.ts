// Async iterators over the six listing patterns of the service (docs/emulator.md "Listing
// conventions"). Pages are fetched one at a time and items yielded as they come, so a caller
// can stream 10,000 sites with flat memory.
import type { ApiClient, Envelope } from './client.js';
import { methodInfo } from './method-index.js';
import type { ListingPattern } from './methods.js';

export interface PaginateOptions {
  /** The pattern; by default the registry's for the method. */
  pattern?: ListingPattern;
  /** Stop after this many items. */
  max?: number;
  signal?: AbortSignal;
  /** Called with each page's envelope (for totals, headers). */
  onPage?: (envelope: Envelope, pageIndex: number) => void;
}

const LIST_KEYS = [
  'items',
  'results',
  'rows',
  'messages',
  'sites',
  'workspaces',
  'backups',
  'files',
  'entries',
  'records',
];

/** Finds the list in a page's data: the data itself, a well-known key, or the only array field. */
export function itemsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  if (!data || typeof data !== 'object') return [];
  const rec = data as Record<string, unknown>;
  for (const k of LIST_KEYS) if (Array.isArray(rec[k])) return rec[k] as unknown[];
  const arrays = Object.values(rec).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as unknown[]) : [];
}

/** A field looked up in data first, then in the envelope (the service puts `count` on the envelope). */
function field(env: Envelope, name: string): unknown {
  const data = env.data as Record<string, unknown> | null;
  if (data && typeof data === 'object' && !Array.isArray(data) && name in data) return data[name];
  return env[name];
}

interface PageState {
  args: Record<string, unknown>;
  done: boolean;
}

/** Given a page and the arguments that fetched it, the arguments of the next page, or null at the end. */
export function nextPageArgs(
  pattern: ListingPattern,
  args: Record<string, unknown>,
  env: Envelope,
  received: number,
): Record<string, unknown> | null {
  if (received === 0) return null;
  switch (pattern) {
    case 'offset': {
      const offset = Number(args.offset ?? 0) + received;
      const count = Number(field(env, 'count'));
      if (Number.isFinite(count) && offset >= count) return null;
      return { ...args, offset };
    }
    case 'offsetHasMore': {
      if (field(env, 'hasMore') !== true) return null;
      const next = field(env, 'nextOffset');
      return { ...args, offset: typeof next === 'number' ? next : Number(args.offset ?? 0) + received };
    }
    case 'nextCursor': {
      const next = field(env, 'nextCursor');
      return next === null || next === undefined || next === '' ? null : { ...args, cursor: next };
    }
    case 'token': {
      const next = field(env, 'nextToken');
      return next === null || next === undefined || next === '' ? null : { ...args, token: next };
    }
    case 'page': {
      const page = Number(args.page ?? 1);
      const totalPages = Number(field(env, 'totalPages') ?? field(env, 'pages'));
      if (Number.isFinite(totalPages) && page >= totalPages) return null;
      if (field(env, 'hasMore') === false) return null;
      return { ...args, page: page + 1 };
    }
    case 'backwards': {
      if (field(env, 'hasMore') !== true) return null;
      const cursor = field(env, 'oldestCursor');
      return cursor === null || cursor === undefined ? null : { ...args, cursor };
    }
  }
}

export async function* paginate<T = unknown>(
  client: ApiClient,
  method: string,
  args: Record<string, unknown> = {},
  options: PaginateOptions = {},
): AsyncGenerator<T> {
  const pattern = options.pattern ?? methodInfo(method)?.listing ?? undefined;
  if (!pattern) throw new Error(`${method} is not a listing method`);
  const state: PageState = {
    args: pattern === 'page' && args.page === undefined ? { ...args, page: 1 } : { ...args },
    done: false,
  };
  let yielded = 0;
  let pageIndex = 0;
  const seen = new Set<string>();
  while (!state.done) {
    const { envelope } = await client.call(method, state.args, { signal: options.signal });
    options.onPage?.(envelope, pageIndex++);
    const items = itemsOf(envelope.data);
    for (const item of items) {
      if (options.max !== undefined && yielded >= options.max) return;
      yield item as T;
      yielded++;
    }
    if (options.max !== undefined && yielded >= options.max) return;
    const next = nextPageArgs(pattern, state.args, envelope, items.length);
    // A service that hands back the same cursor twice would loop for ever: stop instead.
    const key = next ? JSON.stringify(next) : '';
    if (!next || seen.has(key)) state.done = true;
    else {
      seen.add(key);
      state.args = next;
    }
  }
}

/**
 * A page-numbered listing as the list commands show it: one page (the first by default), or
 * every page with `all`; `more` says that a page follows the one shown.
 */
export async function listByPage(
  client: ApiClient,
  method: string,
  args: Record<string, unknown>,
  opts: { page?: number; all?: boolean; signal?: AbortSignal },
): Promise<{ items: unknown[]; more: boolean }> {
  if (opts.all) {
    const items: unknown[] = [];
    for await (const item of paginate(client, method, args, { pattern: 'page', signal: opts.signal })) items.push(item);
    return { items, more: false };
  }
  const page = opts.page ?? 1;
  const { envelope } = await client.call(method, { ...args, page }, { signal: opts.signal });
  return {
    items: itemsOf(envelope.data),
    more: nextPageArgs('page', { ...args, page }, envelope, itemsOf(envelope.data).length) !== null,
  };
}
