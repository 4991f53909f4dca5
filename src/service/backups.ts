// The three kinds of backup record and what their methods answer. The reference shows their
// identifiers (`_id` and `BackupId` of a site backup, `codeBackupId`, `backupId`), a site backup's
// type `automatic` for the Pre-restore Backup, and that archiving, failed and older-format
// storage backups cannot be restored; every other field: not shown. So the rest is read for
// showing and advising only: the plan call and the service decide what can be restored.
import { field, isRecord, locate, type ReadRecord, readRecord, recordOf, resource } from './read.js';
import { parseTime } from './time.js';
import { asBoolean, asId, asNumber, asText } from './values.js';

const CREATED = ['createdAt', 'created', 'date', 'takenAt'];
const LABEL = ['label', 'name', 'title', 'message'];

const common = {
  created: field('when it was taken', CREATED, parseTime),
  label: field('its label', LABEL, asText),
};

export const SITE_BACKUP = resource('site backup', 'list_backups data (the list)', {
  id: field('its id', ['_id', 'id'], asId, ['_id']),
  backupId: field('its BackupId', ['BackupId'], asId, ['BackupId']),
  type: field('its type', ['type'], asText, ['type']),
  ...common,
});

export const CODE_BACKUP = resource('code backup', 'list_code_backups data (the list)', {
  id: field('its id', ['codeBackupId', '_id', 'id'], asId, ['codeBackupId']),
  files: field('its file count', ['files', 'fileCount'], asNumber),
  run: field('the run it was taken after', ['jobId', 'runId'], asId),
  ...common,
});

export const STORAGE_BACKUP = resource('storage backup', 'list_storage_backups data (the list)', {
  id: field('its id', ['backupId', '_id', 'id'], asId, ['backupId']),
  type: field('its type', ['type'], asText),
  size: field('its size', ['sizeBytes', 'size', 'bytes'], asNumber),
  files: field('its file count', ['files', 'fileCount'], asNumber),
  status: field('its status', ['status', 'state'], asText),
  restorable: field('whether it can be restored', ['restorable', 'canRestore', 'isRestorable'], asBoolean),
  reason: field('why it cannot be restored', ['notRestorableReason', 'reason'], asText),
  olderFormat: field('whether it is of an older format', ['olderFormat', 'legacy'], asBoolean),
  ...common,
});

export type SiteBackup = ReadRecord<typeof SITE_BACKUP.fields>;
export type CodeBackup = ReadRecord<typeof CODE_BACKUP.fields>;
export type StorageBackup = ReadRecord<typeof STORAGE_BACKUP.fields>;

export const readSiteBackup = (raw: unknown): SiteBackup => readRecord(SITE_BACKUP, raw);
export const readCodeBackup = (raw: unknown): CodeBackup => readRecord(CODE_BACKUP, raw);
export const readStorageBackup = (raw: unknown): StorageBackup => readRecord(STORAGE_BACKUP, raw);

/** The ids a site backup answers to: its `_id` and its `BackupId` (either works as `backupId`). */
export function siteBackupIds(raw: unknown): string[] {
  const b = readSiteBackup(raw);
  return [b.id, b.backupId].filter((v): v is string => typeof v === 'string');
}
export const codeBackupId = (raw: unknown): string => locate(raw, CODE_BACKUP.fields.id)?.value ?? '';
export const storageBackupId = (raw: unknown): string => locate(raw, STORAGE_BACKUP.fields.id)?.value ?? '';

/** Status words (not shown by the service) that read as "still being archived" and as "failed". */
export const ARCHIVING_STATUS = /^(archiving|pending|queued|creating|running|in[_ -]?progress|processing)$/i;
const FAILED_STATUS = /^(failed|failure|error|errored)$/i;

/** Whether a storage backup can be restored, and why not: advice, from fields the service does not show. */
export function restorability(raw: unknown): { restorable: boolean; reason?: string } {
  const b = readStorageBackup(raw);
  const status = typeof b.status === 'string' ? b.status : '';
  if (ARCHIVING_STATUS.test(status)) return { restorable: false, reason: 'still being archived' };
  if (FAILED_STATUS.test(status)) return { restorable: false, reason: 'failed' };
  if (b.olderFormat === true) return { restorable: false, reason: 'older format' };
  if (b.restorable === false)
    return { restorable: false, reason: typeof b.reason === 'string' ? b.reason : 'not restorable' };
  return { restorable: true };
}

/** Still being archived, by its status word: only decides how long `--wait` watches. */
export const isArchiving = (raw: unknown): boolean => {
  const s = readStorageBackup(raw).status;
  return typeof s === 'string' && ARCHIVING_STATUS.test(s);
};

/** create_storage_backup's answer: the backup record, under `backup` or as the data itself. */
export function readCreatedStorageBackup(data: unknown): Record<string, unknown> {
  const d = recordOf(data);
  return isRecord(d.backup) ? d.backup : d;
}

/** Where restore_backup's answer may name the Pre-restore Backup (not shown): a record, or an id. */
const PRE_RESTORE = resource('restore_backup answer', 'restore_backup data', {
  record: field('the Pre-restore Backup', ['preRestoreBackup', 'createdBackup', 'undoBackup', 'safetyBackup'], (v) =>
    isRecord(v) ? v : undefined,
  ),
  id: field(
    'the Pre-restore Backup’s id',
    ['preRestoreBackupId', 'createdBackupId', 'undoBackupId', 'safetyBackupId'],
    asId,
  ),
});
export { PRE_RESTORE };

/** The id of the Pre-restore Backup the answer names, if it names one (never the restored backup's own). */
export function preRestoreBackupId(data: unknown, restored: string): string | null {
  const f = PRE_RESTORE.fields;
  const d = recordOf(data);
  const records = f.record.paths.map((p) => d[p]).filter(isRecord);
  const ids = [...records.flatMap(siteBackupIds), ...f.id.paths.map((p) => asId(d[p]))];
  return ids.find((id): id is string => typeof id === 'string' && id !== restored) ?? null;
}

/** restore_code_backup's answer: the run it stopped, where it names one (not shown). */
export const CODE_RESTORE_ANSWER = resource('restore_code_backup answer', 'restore_code_backup data', {
  stopped: field('the run it stopped', ['cancelledJobId', 'stoppedJobId', 'cancelledJob'], asId),
});
export const readStoppedRun = (data: unknown): string | undefined =>
  locate(data, CODE_RESTORE_ANSWER.fields.stopped)?.value;

export const BROWSE_ENTRY = resource('storage backup entry', 'browse_storage_backup data (the list)', {
  path: field('its path', ['path'], asText),
  name: field('its name', ['name'], asText),
  kind: field('file or folder', ['type', 'kind'], asText),
  size: field('its size', ['sizeBytes', 'size', 'bytes'], asNumber),
  files: field('its file count', ['files', 'fileCount'], asNumber),
  visibility: field('its copies', ['visibility'], asText),
});
export type BrowseEntry = ReadRecord<typeof BROWSE_ENTRY.fields> & { folder: boolean };

export function readBrowseEntry(raw: unknown): BrowseEntry {
  const e = readRecord(BROWSE_ENTRY, raw);
  const folder = e.kind === 'folder' || (typeof e.path === 'string' && e.path.endsWith('/'));
  // A path is the entry's own, else its folder and its name (the caller knows the folder).
  return { ...e, folder };
}

export const FILE_CONTENT = resource('storage backup file', 'read_storage_backup_file data', {
  content: field('its content', ['content', 'contentBase64', 'data'], asText),
  encoding: field('its encoding', ['encoding'], asText),
  visibility: field('its copy', ['visibility'], asText),
});

/** Which copy a read file is, when the answer says. */
export const readFileVisibility = (data: unknown): string | undefined =>
  locate(data, FILE_CONTENT.fields.visibility)?.value;

/** A file's bytes: base64 where `encoding` says so or the field is `contentBase64`, else UTF-8 text. */
export function readFileContent(data: unknown): Buffer {
  const found = locate(data, FILE_CONTENT.fields.content);
  const encoding =
    locate(data, FILE_CONTENT.fields.encoding)?.value ?? (found?.path === 'contentBase64' ? 'base64' : 'utf8');
  return Buffer.from(found?.value ?? '', encoding === 'base64' ? 'base64' : 'utf8');
}

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : Array.isArray(v) ? v.length : undefined;
const idList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' || storageBackupId(x))
    ? v.map((x) => (typeof x === 'string' ? x : storageBackupId(x)))
    : undefined;

export const CLEAR_ANSWER = resource('clear_storage_backups answer', 'clear_storage_backups data', {
  deleted: field('how many were deleted', ['deleted', 'deletedCount', 'removed', 'removedCount', 'count'], count),
  ids: field('which were deleted', ['backupIds', 'deletedBackupIds', 'deletedIds', 'ids', 'deleted', 'removed'], (v) =>
    Array.isArray(v) && v.length === 0 ? [] : idList(v),
  ),
});

/** What clear_storage_backups says it deleted: a count and the ids, where it says (the envelope's count too). */
export function readCleared(data: unknown, envelopeCount: unknown): { deleted?: number; ids?: string[] } {
  const f = CLEAR_ANSWER.fields;
  return { deleted: locate(data, f.deleted)?.value ?? count(envelopeCount), ids: locate(data, f.ids)?.value };
}
