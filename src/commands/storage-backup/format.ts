// Shared wording for the backup nouns: sizes, dates and whether a storage backup can be
// restored. The service documents few backup fields, so each reader looks for the obvious names and
// never crashes on a missing one.
import { asRecord, isoTime, pick, pickString } from '../../io/records.js';

export function formatBytes(value: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** "2026-11-20 12:00 UTC" on a terminal (the same for every reader), ISO-8601 when piped. */
export function formatWhen(value: unknown, tty: boolean): string {
  const iso = isoTime(value);
  if (!tty || !iso || !/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso)) return iso;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** formatWhen's day alone ("2026-11-20"), for a line too narrow for the time. */
export const dayOf = (when: string): string => /^\d{4}-\d\d-\d\d/.exec(when)?.[0] ?? when;

export const storageBackupId = (b: unknown): string => pickString(b, 'backupId', '_id', 'id') ?? '';
export const codeBackupId = (b: unknown): string => pickString(b, 'codeBackupId', '_id', 'id') ?? '';
/** The names each field of a backup is read under (the list commands name them when none is sent). */
export const BACKUP_FIELDS = {
  created: ['createdAt', 'created', 'date', 'takenAt'],
  size: ['sizeBytes', 'size', 'bytes'],
  files: ['files', 'fileCount'],
  label: ['label', 'name', 'title', 'message'],
};
export const createdAt = (b: unknown): unknown => pick(b, ...BACKUP_FIELDS.created);
export const sizeOf = (b: unknown): unknown => pick(b, ...BACKUP_FIELDS.size);
export const fileCountOf = (b: unknown): unknown => pick(b, ...BACKUP_FIELDS.files);
export const labelOf = (b: unknown): string => pickString(b, ...BACKUP_FIELDS.label) ?? '';

/**
 * Whether a storage backup can be restored, and why not. The service: backups still being
 * archived, failed, or in an older format cannot be restored. Advice only, read from fields it
 * does not show (status words below): the plan call decides, refusing those with its reason.
 */
export function restorability(backup: unknown): { restorable: boolean; reason?: string } {
  const b = asRecord(backup);
  const status = pickString(b, 'status', 'state') ?? '';
  if (ARCHIVING_STATUS.test(status)) return { restorable: false, reason: 'still being archived' };
  if (FAILED_STATUS.test(status)) return { restorable: false, reason: 'failed' };
  if (b.olderFormat === true || b.legacy === true) return { restorable: false, reason: 'older format' };
  if (b.restorable === false || b.canRestore === false || b.isRestorable === false)
    return { restorable: false, reason: pickString(b, 'notRestorableReason', 'reason') ?? 'not restorable' };
  return { restorable: true };
}

export function statusText(backup: unknown): string {
  const r = restorability(backup);
  // No status word is said as such, never taken for "ready".
  return r.restorable ? (pickString(backup, 'status', 'state') ?? 'not given') : `${r.reason} (cannot be restored)`;
}

/** Status words (not shown by the service) that read as "still being archived" and as "failed". */
export const ARCHIVING_STATUS = /^(archiving|pending|queued|creating|running|in[_ -]?progress|processing)$/i;
const FAILED_STATUS = /^(failed|failure|error|errored)$/i;

/**
 * The time a record was made, in ms, from an ISO string or epoch ms (the service shows no
 * backup time field: `createdAt` and its alternatives are read).
 */
export function createdMs(b: unknown): number | undefined {
  const v = createdAt(b);
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * Newest first by creation time, when every record has one; otherwise the service's order
 * (the order inside a page is not shown), and `sorted` says which, so a title never promises
 * an order the list does not have.
 */
export function newestFirst<T>(items: T[]): { items: T[]; sorted: boolean } {
  const times = items.map(createdMs);
  if (times.some((t) => t === undefined)) return { items, sorted: false };
  const order = items.map((item, i) => ({ item, t: times[i] as number, i }));
  order.sort((a, b) => b.t - a.t || a.i - b.i);
  return { items: order.map((o) => o.item), sorted: true };
}

/**
 * A --json document: the command's own keys (always there, typed as documented), then the
 * service's data as it sent it, less fields of the same names.
 */
export function ownKeysThenData(own: Record<string, unknown>, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...own };
  for (const [k, v] of Object.entries(data)) if (!(k in own)) out[k] = v;
  return out;
}
