// Reading list_messages records, whose fields the service does not show (docs/real-service.md
// "Chat, replies and runs"): a record's time and the run it belongs to are read under the
// obvious names, and an order is only ever taken from a time, never from a position in a page.
import { asRecord, pick, pickString } from '../../io/records.js';

/** Where a record may keep its time, most likely first. */
const TIME_FIELDS = ['createdAt', 'created_at', 'timestamp', 'time', 'sentAt', 'at', 'date'];

/**
 * A time in ms from an ISO-8601 string, epoch milliseconds, or epoch seconds (a number below
 * 10^11, which as milliseconds would be March 1973); undefined when it is none of these.
 */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < 1e11 ? value * 1000 : value;
  }
  if (typeof value !== 'string' || !value.trim()) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return timeOf(Number(value));
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The time of a history record, when it shows one. */
export function recordTime(record: unknown): number | undefined {
  for (const name of TIME_FIELDS) {
    const t = timeOf(asRecord(record)[name]);
    if (t !== undefined) return t;
  }
  return undefined;
}

/** The run a history record belongs to, when it says. */
export function recordJobId(record: unknown): string | undefined {
  const r = asRecord(record);
  const id = pickString(r, 'jobId', 'job_id') ?? pickString(pick(r, 'job'), 'jobId', '_id', 'id');
  return id?.trim() ? id : undefined;
}

/**
 * The records newest first when every one of them shows a time (a stable sort, so equal times
 * keep the service's order); otherwise undefined: the order inside a page is not stated.
 */
export function newestFirst<T>(records: T[]): T[] | undefined {
  const times = records.map(recordTime);
  if (times.some((t) => t === undefined)) return undefined;
  return records
    .map((r, i) => ({ r, t: times[i] as number, i }))
    .sort((a, b) => b.t - a.t || a.i - b.i)
    .map((x) => x.r);
}

/** A run named by the history, at the time of its newest record. */
export interface HistoryRun {
  jobId: string;
  at: number;
}

/** The runs the records name with a time (records without either are left out), newest first. */
export function historyRuns(records: unknown[]): HistoryRun[] {
  const newest = new Map<string, number>();
  for (const r of records) {
    const jobId = recordJobId(r);
    const at = recordTime(r);
    if (jobId === undefined || at === undefined) continue;
    newest.set(jobId, Math.max(at, newest.get(jobId) ?? Number.NEGATIVE_INFINITY));
  }
  return [...newest].map(([jobId, at]) => ({ jobId, at })).sort((a, b) => b.at - a.at);
}
