// Where a page's records and its paging fields are (docs/real-service.md "Listing and paging").
// The reference names the paging fields of its six listing patterns but not their types, and
// shows where the records are only for list_sites ("sites in `data`"): each is read under its
// name and the obvious alternatives, the reference's first.
import { type Field, field, isRecord, resource } from './read.js';

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

/** The names each paging field is read under, the reference's first. */
export const PAGE_FIELDS = {
  count: ['count', 'total', 'totalCount', 'total_count', 'totalItems'],
  hasMore: ['hasMore', 'has_more', 'hasNextPage', 'hasNext'],
  nextOffset: ['nextOffset', 'nextPageOffset', 'next_offset'],
  nextCursor: ['nextCursor', 'next_cursor', 'nextPageCursor'],
  nextToken: ['nextToken', 'next_token', 'nextPageToken'],
  oldestCursor: ['oldestCursor', 'oldest_cursor', 'olderCursor'],
  totalPages: ['totalPages', 'pageCount', 'total_pages', 'page_count', 'numPages', 'lastPage', 'pages'],
  nextPage: ['nextPage', 'next_page'],
} as const;

/** The paging fields the reference names (the first name of each). */
const STATED_PAGE_FIELDS = ['count', 'hasMore', 'nextCursor', 'nextToken', 'oldestCursor'];

/** A value's kind in a few words, for a sentence naming what an answer held. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) {
    const keys = Object.keys(value);
    return `an object with ${keys.length ? `the fields ${keys.slice(0, 5).join(', ')}` : 'no fields'}`;
  }
  return typeof value === 'string' ? 'text' : typeof value;
}

/**
 * The list of records in a page's `data`: the data itself; else the list under `items`; else
 * its only list; else, among several, the only one under a well-known key; else, with no list
 * at all, the only list one object down (`{ collection: { items: […] } }`). A string naming what
 * is wrong when there is none, or more than one to choose from.
 */
export function findList(data: unknown, depth = 0): unknown[] | { problem: string } {
  if (Array.isArray(data)) return data;
  if (isRecord(data)) {
    if (Array.isArray(data.items)) return data.items;
    const lists = Object.keys(data).filter((k) => Array.isArray(data[k]));
    if (lists.length === 1) return data[lists[0]] as unknown[];
    const known = lists.filter((k) => LIST_KEYS.includes(k));
    if (known.length === 1) return data[known[0]] as unknown[];
    if (lists.length > 1)
      return {
        problem: `holds ${lists.length} lists (${lists.slice(0, 6).join(', ')}) and none under \`items\`, so which one holds the records is not known`,
      };
    if (depth === 0) {
      const below = Object.values(data)
        .filter(isRecord)
        .map((child) => findList(child, 1))
        .filter((found): found is unknown[] => Array.isArray(found));
      if (below.length === 1) return below[0];
    }
  }
  return { problem: `holds no list of records (its data is ${kindOf(data)})` };
}

const asAny = (v: unknown) => v;

/** The paging fields as a resource (read in data, then on the envelope; api/page-fields.ts). */
export const PAGE = resource(
  'page',
  'every listing: data, then the envelope',
  Object.fromEntries(
    Object.entries(PAGE_FIELDS).map(([name, paths]) => [
      name,
      field(`the page's ${name}`, paths, asAny, STATED_PAGE_FIELDS.includes(paths[0]) ? [paths[0]] : []),
    ]),
  ) as Record<keyof typeof PAGE_FIELDS, Field<unknown>>,
);
