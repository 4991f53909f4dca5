// --paginate for the api passthrough: follows any of the six listing patterns of the service —
// the registry's for a known method, --pattern, or else the one the first page reveals — and
// streams the items as one JSON array, or as NDJSON with --jsonl.
import type { ApiClient, Envelope } from '../../api/client.js';
import { itemsOf, nextPageArgs } from '../../api/paginate.js';
import type { ListingPattern } from '../../api/methods.js';
import type { IO } from '../../io/io.js';

function has(env: Envelope, name: string): boolean {
  const data = env.data;
  if (data && typeof data === 'object' && !Array.isArray(data) && name in data) return true;
  return name in env;
}

/** The pattern a page reveals by its fields; undefined when it shows none (a single page). */
export function detectPattern(env: Envelope): ListingPattern | undefined {
  if (has(env, 'nextCursor')) return 'nextCursor';
  if (has(env, 'nextToken')) return 'token';
  if (has(env, 'oldestCursor')) return 'backwards';
  if (has(env, 'hasMore')) return 'offsetHasMore';
  if (has(env, 'totalPages')) return 'page';
  if (typeof env.count === 'number') return 'offset';
  return undefined;
}

export interface PageLoopOptions {
  client: ApiClient;
  io: IO;
  method: string;
  args: Record<string, unknown>;
  pattern?: ListingPattern;
  jsonl: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Prints every item of every page; returns the number of pages fetched. */
export async function printAllPages(
  o: PageLoopOptions,
): Promise<{ pages: number; items: number; pattern?: ListingPattern }> {
  let pattern = o.pattern;
  let args = pattern === 'page' && o.args.page === undefined ? { ...o.args, page: 1 } : { ...o.args };
  const seen = new Set<string>([JSON.stringify(args)]);
  let pages = 0;
  let items = 0;
  if (!o.jsonl) await o.io.write('[');
  try {
    for (;;) {
      const { envelope } = await o.client.call(o.method, args, { headers: o.headers, signal: o.signal });
      pages++;
      const list = itemsOf(envelope.data);
      for (const item of list) {
        await o.io.write(
          o.jsonl ? `${JSON.stringify(item)}\n` : `${items === 0 ? '\n' : ',\n'}${JSON.stringify(item)}`,
        );
        items++;
      }
      pattern ??= detectPattern(envelope);
      const next = pattern ? nextPageArgs(pattern, args, envelope, list.length) : null;
      // A service that hands back the same cursor twice would loop for ever: stop instead.
      const key = next ? JSON.stringify(next) : '';
      if (!next || seen.has(key)) break;
      seen.add(key);
      args = next;
    }
  } finally {
    // Even when a later page fails, what was printed stays one valid JSON array.
    if (!o.jsonl) o.io.outLine(items === 0 ? ']' : '\n]');
  }
  return { pages, items, pattern };
}
