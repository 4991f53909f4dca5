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
 * archived, failed, or in an older format cannot be restored.
 */
export function restorability(backup: unknown): { restorable: boolean; reason?: string } {
  const b = asRecord(backup);
  const status = pickString(b, 'status', 'state')?.toLowerCase();
  if (status === 'archiving') return { restorable: false, reason: 'still being archived' };
  if (status === 'failed') return { restorable: false, reason: 'failed' };
  if (b.olderFormat === true || b.legacy === true) return { restorable: false, reason: 'older format' };
  if (b.restorable === false)
    return { restorable: false, reason: pickString(b, 'notRestorableReason', 'reason') ?? 'not restorable' };
  return { restorable: true };
}

export function statusText(backup: unknown): string {
  const r = restorability(backup);
  return r.restorable ? (pickString(backup, 'status', 'state') ?? 'ready') : `${r.reason} (cannot be restored)`;
}
