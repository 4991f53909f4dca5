// --paginate for the api passthrough: follows any of the six listing patterns of the service —
// the registry's for a known method, --pattern, or else the one the first page reveals — and
// streams the records as one JSON array, or as NDJSON with --jsonl. The listing ends as every
// listing does (src/api/paginate.ts): a failure after some records still closes the array.
import type { ApiClient } from '../../api/client.js';
import { pages } from '../../api/paginate.js';
import type { ListingPattern } from '../../api/registry-terms.js';
import type { IO } from '../../io/io.js';
import { writeJsonArray, writeJsonLines } from '../shared/listing.js';

export { detectPattern } from '../../api/paginate.js';

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

/** Prints every record of every page; returns how many pages and records, and the pattern followed. */
export async function printAllPages(
  o: PageLoopOptions,
): Promise<{ pages: number; items: number; pattern?: ListingPattern }> {
  const seen = { pages: 0, items: 0, pattern: o.pattern };
  const records = async function* () {
    for await (const page of pages(o.client, o.method, o.args, {
      pattern: o.pattern,
      detect: true,
      headers: o.headers,
      signal: o.signal,
    })) {
      seen.pages++;
      seen.pattern = page.pattern;
      for (const item of page.items) {
        seen.items++;
        yield item;
      }
    }
  };
  await (o.jsonl ? writeJsonLines : writeJsonArray)(o.io, records(), 'records');
  return seen;
}
