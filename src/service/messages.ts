// list_messages: a site's chat history, "newest page first" with `hasMore` and `oldestCursor`
// (stated); where the records are, their order inside a page and every field of a record: not
// shown. A record is read for showing only (message list); what waits on a site is decided
// without reading any of its fields: from each record's fingerprint (docs/real-service.md
// "What waits on a site").
import { createHash } from 'node:crypto';
import { findList } from './page.js';
import { field, isRecord, type ReadRecord, readRecord, resource } from './read.js';
import { parseTime } from './time.js';
import { asId, asText, readText } from './values.js';

/** Where a record's time may be, most likely first (shared by the records that show one). */
export const TIME_PATHS = ['createdAt', 'created_at', 'timestamp', 'time', 'sentAt', 'at', 'date'];

export const MESSAGE = resource('message record', 'list_messages data (the list)', {
  time: field('the time', TIME_PATHS, parseTime),
  jobId: field('the run', ['jobId', 'job_id', 'job.jobId', 'job._id', 'job.id'], asId),
  sender: field('the sender', ['role', 'author', 'from'], asText),
  text: field('the text', ['text', 'content', 'prompt', 'message'], readText),
});

export type MessageRecord = ReadRecord<typeof MESSAGE.fields>;

export function readMessage(raw: unknown): MessageRecord {
  return readRecord(MESSAGE, raw);
}

/** Text written as it is, among the values still to write. */
class Literal {
  constructor(readonly text: string) {}
}

/**
 * A record's fingerprint: a hash of the whole record, no field of it read: its JSON with the
 * keys of every object sorted (the same record, whatever its key order), written through a loop
 * with its own stack, so that a record nested 100,000 levels is hashed whole too.
 */
export function fingerprint(record: unknown): string {
  const hash = createHash('sha256');
  const todo: unknown[] = [record];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v instanceof Literal) hash.update(v.text);
    else if (v === null || typeof v !== 'object') hash.update(JSON.stringify(v) ?? 'null');
    else {
      const array = Array.isArray(v);
      const entries: unknown[] = array
        ? v.flatMap((item, i) => (i ? [new Literal(','), item] : [item]))
        : Object.keys(v)
            .sort()
            .flatMap((k, i) => [
              new Literal(`${i ? ',' : ''}${JSON.stringify(k)}:`),
              (v as Record<string, unknown>)[k],
            ]);
      // Pushed in reverse (one at a time: a list may be long): the opening comes off first.
      todo.push(new Literal(array ? ']' : '}'));
      for (let i = entries.length - 1; i >= 0; i--) todo.push(entries[i]);
      todo.push(new Literal(array ? '[' : '{'));
    }
  }
  return hash.digest('base64url').slice(0, 16);
}

/** The first page of the history, as far as a decision may use it. */
export interface HistoryPage {
  /** The fingerprints of its records (of the whole data when no list is found in it), sorted. */
  prints: string[];
  /** An empty list and no `hasMore: true`: the site has no conversation yet. */
  empty: boolean;
}

export function readHistoryPage(data: unknown): HistoryPage {
  const list = findList(data);
  const hasMore = isRecord(data) && data.hasMore === true;
  if (!Array.isArray(list)) return { prints: [fingerprint(data)], empty: false };
  return { prints: list.map(fingerprint).sort(), empty: list.length === 0 && !hasMore };
}

/** How two first pages differ: the records of `now` not in `then`; `same` when they are the same records. */
export function compareHistory(then: readonly string[], now: readonly string[]): { same: boolean; unseen: number } {
  const seen = new Set(then);
  const unseen = now.filter((p) => !seen.has(p)).length;
  const same = unseen === 0 && then.length === now.length && now.every((p) => seen.has(p));
  return { same, unseen };
}
