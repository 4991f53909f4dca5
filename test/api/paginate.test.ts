// The pure parts of paging (what a page says of the next, where its records are, the order of
// backups, a tool's kind) and the page bound, over a real client and a scripted server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findList } from '../../src/api/answer.js';
import type { Envelope } from '../../src/api/call.js';
import { ApiClient } from '../../src/api/client.js';
import { decideNext, type Verdict } from '../../src/api/page-fields.js';
import { itemsOf, PAGE_BOUND, paginate, largestPage } from '../../src/api/paginate.js';
import type { ListingPattern } from '../../src/api/registry-terms.js';
import { FakeClock } from '../../src/clock.js';
import { toolKind } from '../../src/commands/tools/tools.js';
import { newestFirst, parseTime } from '../../src/service/time.js';
import { envelope, type ScriptServer, startScriptServer } from '../helpers/script-server.js';

const env = (data: unknown, extra: Record<string, unknown> = {}) =>
  ({ success: true, message: '', code: 200, data, ...extra }) as Envelope;
const decide = (
  pattern: ListingPattern,
  args: Record<string, unknown>,
  e: Envelope,
  received: number,
  longest = 0,
  before = 0,
): Verdict => decideNext(pattern, args, e, { received, before, longest });

describe('what a page says of the next', () => {
  it('offset: count (or total, as text too) ends it; without one, an empty or a short page does', () => {
    expect(decide('offset', { offset: 0 }, env([], { count: 5 }), 3)).toEqual({ next: { offset: 3 }, stated: true });
    expect(decide('offset', { offset: 3 }, env([], { count: '5' }), 2)).toEqual({ end: true });
    expect(decide('offset', {}, env({ items: [], total: 9 }), 4)).toEqual({ next: { offset: 4 }, stated: true });
    expect(decide('offset', { offset: 4 }, env([]), 4, 4)).toEqual({ next: { offset: 8 }, stated: false });
    expect(decide('offset', { offset: 8 }, env([]), 3, 4)).toEqual({ end: true });
    expect(decide('offset', { offset: 8 }, env([]), 0, 4)).toEqual({ end: true });
  });

  it('offset with hasMore: the next offset goes back as it came (nextOffset, nextPageOffset)', () => {
    expect(decide('offsetHasMore', {}, env({ hasMore: true, nextOffset: 'o-20' }), 20)).toEqual({
      next: { offset: 'o-20' },
      stated: true,
    });
    expect(decide('offsetHasMore', {}, env({ hasMore: true, nextPageOffset: 20 }), 20)).toEqual({
      next: { offset: 20 },
      stated: true,
    });
    expect(decide('offsetHasMore', {}, env({ hasMore: true }), 20)).toEqual({ next: { offset: 20 }, stated: true });
    expect(decide('offsetHasMore', {}, env({ hasMore: false, nextOffset: 20 }), 20)).toEqual({ end: true });
  });

  it('cursors and tokens go back as they came, numbers or text; a missing one after hasMore is a problem', () => {
    for (const cursor of [101, 'c_101', 0]) {
      expect(decide('nextCursor', { a: 1 }, env({ nextCursor: cursor }), 5)).toEqual({
        next: { a: 1, cursor },
        stated: true,
      });
      expect(decide('token', {}, env({ nextToken: cursor }), 5)).toEqual({ next: { token: cursor }, stated: true });
      expect(decide('backwards', {}, env({ hasMore: true, oldestCursor: cursor }), 5)).toEqual({
        next: { cursor },
        stated: true,
      });
    }
    expect(decide('nextCursor', {}, env({ nextCursor: null }), 5)).toEqual({ end: true });
    expect(decide('backwards', {}, env({ hasMore: false, oldestCursor: 7 }), 5)).toEqual({ end: true });
    expect(decide('backwards', {}, env({ hasMore: true }), 5)).toEqual({
      end: true,
      problem: 'says more follow (hasMore) but sent no oldestCursor to ask for them',
    });
    // A full page naming no cursor at all: the cursor may be under a name the CLI does not know.
    expect(decide('nextCursor', { limit: 5 }, env({ items: [], after: 'x' }), 5)).toEqual({
      end: true,
      problem: 'sent a full page of 5 but no nextCursor, so whether more follow is not known',
    });
    expect(decide('nextCursor', { limit: 5 }, env({ items: [] }), 4)).toEqual({ end: true });
  });

  it('page numbers: totalPages, pageCount and the alternatives, nextPage, a count, or a short page', () => {
    for (const name of ['totalPages', 'pageCount', 'total_pages', 'numPages', 'lastPage', 'pages']) {
      expect(decide('page', { page: 1 }, env({ [name]: 2 }), 10), name).toEqual({ next: { page: 2 }, stated: true });
      expect(decide('page', { page: 2 }, env({ [name]: 2 }), 10), name).toEqual({ end: true });
    }
    expect(decide('page', { page: 1 }, env({ nextPage: 'p2' }), 10)).toEqual({ next: { page: 'p2' }, stated: true });
    expect(decide('page', { page: 2 }, env({ nextPage: null }), 10)).toEqual({ end: true });
    expect(decide('page', { page: 2 }, env({}, { count: 20 }), 10, 10, 10)).toEqual({ end: true });
    expect(decide('page', { page: 2 }, env({}), 10, 10, 10)).toEqual({ next: { page: 3 }, stated: false });
    expect(decide('page', { page: 3 }, env({}), 4, 10, 20)).toEqual({ end: true });
    expect(decide('page', { page: 1 }, env({ hasMore: false, totalPages: 9 }), 10)).toEqual({ end: true });
  });
});

describe('the records of a page', () => {
  it('prefer items, then the only list, then the only well-known one; refuse when it is not known which', () => {
    expect(findList([1])).toEqual([1]);
    expect(findList({ items: [1], tags: ['t'] })).toEqual([1]);
    expect(findList({ runs: [1], meta: { revision: 1 } })).toEqual([1]);
    expect(findList({ backups: [1], tags: ['t'] })).toEqual([1]);
    expect(findList({ runs: [1], tags: ['t'] })).toEqual({
      problem: 'holds 2 lists (runs, tags) and none under `items`, so which one holds the records is not known',
    });
    expect(() => itemsOf({ backups: [1], files: [2] }, 'list_backups')).toThrow(
      'The answer to list_backups holds 2 lists (backups, files) and none under `items`',
    );
    expect(() => itemsOf({})).toThrow('The answer holds no list of records (its data is an object with no fields)');
  });

  it('asks for the registry’s largest page where the method takes a limit', () => {
    expect(largestPage('list_sites')).toBe(1000);
    expect(largestPage('list_storage_backups')).toBeUndefined();
    expect(PAGE_BOUND * 1000).toBeGreaterThanOrEqual(100 * 100_000);
  });
});

describe('a listing that never ends', () => {
  let server: ScriptServer;
  beforeAll(async () => {
    server = await startScriptServer();
  });
  afterAll(() => server.close());

  it('stops with an error at the page bound, even when every page is new', async () => {
    let n = 0;
    server.answerFor = () => ({ body: envelope([{ _id: `site_${n++}` }]) });
    const client = new ApiClient({ baseUrl: server.baseUrl, token: 't', clock: new FakeClock() });
    const got: unknown[] = [];
    const err = await (async () => {
      for await (const s of paginate(client, 'list_sites', { workspaceId: 'ws_1' }, { maxPages: 25 })) got.push(s);
    })().catch((e: Error) => e);
    client.close();
    expect(got).toHaveLength(25);
    expect(server.requests).toHaveLength(25);
    expect(String((err as Error).message)).toContain(
      'list_sites still had more after 25 pages, the most a listing reads; stopped after 25 records, so the listing is incomplete.',
    );
  });
});

describe('newest first and tool kinds', () => {
  it('sorts by ISO or epoch-ms times, stably; keeps the service’s order when a time is missing', () => {
    expect(parseTime('2026-01-02T00:00:00Z')).toBe(Date.UTC(2026, 0, 2));
    expect(parseTime(1767312000000)).toBe(1767312000000);
    expect(parseTime('1767312000000')).toBe(1767312000000);
    expect(parseTime('yesterday')).toBeUndefined();
    const rs = [
      { id: 'a', t: '2026-01-01T00:00:00Z' },
      { id: 'b', t: Date.UTC(2026, 0, 3) },
      { id: 'c', t: '2026-01-02T00:00:00Z' },
      { id: 'd', t: Date.UTC(2026, 0, 3) },
    ];
    expect(newestFirst(rs, (r) => parseTime(r.t))).toEqual({ records: [rs[1], rs[3], rs[2], rs[0]], sorted: true });
    const partial = [...rs, { id: 'e', t: undefined }];
    expect(newestFirst(partial, (r) => parseTime(r.t))).toEqual({ records: partial, sorted: false });
  });

  it('reads a tool’s kind from write/destructive or MCP-like annotations', () => {
    expect(toolKind({ write: true, destructive: true })).toBe('destructive');
    expect(toolKind({ write: false, listing: 'offset' })).toBe('read, pages: offset');
    expect(toolKind({ annotations: { readOnlyHint: true, destructiveHint: false }, pagination: 'page' })).toBe(
      'read, pages: page',
    );
    expect(toolKind({ annotations: { readOnlyHint: false, destructiveHint: false } })).toBe('write');
    expect(toolKind({ annotations: { readOnlyHint: false, destructiveHint: true } })).toBe('destructive');
    expect(toolKind({ name: 'x' })).toBe('');
  });
});
