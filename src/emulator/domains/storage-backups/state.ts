// The storage backups slice: backups (with a copy of every file), restores, and the timings
// of archiving and restoring. Statuses are derived from emulated time (a backup is archiving
// until readyAt; a restore runs until completesAt), so they survive --state save and load;
// a restore's file changes are applied when it completes (settleRestores).
import { deleteStorageFile, putStorageFile, type StorageFile } from '../storage-files/files.js';
import type { PlanOp, RestoreMode, StoragePlan } from './plan.js';
import type { CallContext, EmulatorHost } from '../../host.js';

export const STORAGE_BACKUPS_DOMAIN = 'storageBackups';

export type StorageBackupType = 'manual' | 'scheduled' | 'before-restore';

export interface StorageBackupRecord {
  backupId: string;
  siteId: string;
  label: string;
  type: StorageBackupType;
  createdAt: number;
  /** Emulated ms when archiving ends. */
  readyAt: number;
  failed: boolean;
  /** 1: an older format that can no longer be restored; 2: current. */
  format: number;
  files: StorageFile[];
  /** For a Before restore backup: the restore that took it. */
  restoreId: string | null;
}

export interface StorageRestoreRecord {
  restoreId: string;
  siteId: string;
  backupId: string;
  mode: RestoreMode;
  paths: string[];
  plan: StoragePlan;
  /** What is written and deleted when the restore completes. */
  ops: PlanOp[];
  safetyBackupId: string | null;
  userId: string;
  startedAt: number;
  completesAt: number;
  appliedAt: number | null;
}

export interface StorageBackupsSlice {
  /** siteId → backups, oldest first. */
  backups: Record<string, StorageBackupRecord[]>;
  restores: Record<string, StorageRestoreRecord>;
  /** Emulated ms: archiving takes archiveBaseMs + 1 s per 10 MB; a restore restoreBaseMs + 1 s per MB written. */
  archiveBaseMs: number;
  restoreBaseMs: number;
}

export const CURRENT_FORMAT = 2;
const MB = 1024 * 1024;

export function storageBackupsSlice(emu: EmulatorHost): StorageBackupsSlice {
  let s = emu.state.domains[STORAGE_BACKUPS_DOMAIN] as StorageBackupsSlice | undefined;
  if (!s) {
    s = emptyStorageBackups();
    emu.state.domains[STORAGE_BACKUPS_DOMAIN] = s;
  }
  return s;
}

export const emptyStorageBackups = (): StorageBackupsSlice => ({
  backups: {},
  restores: {},
  archiveBaseMs: 5_000,
  restoreBaseMs: 3_000,
});

export const archiveMs = (s: StorageBackupsSlice, bytes: number) =>
  s.archiveBaseMs + Math.ceil(bytes / (10 * MB)) * 1000;
export const restoreMs = (s: StorageBackupsSlice, bytesWritten: number) =>
  s.restoreBaseMs + Math.ceil(bytesWritten / MB) * 1000;

export const backupsOf = (emu: EmulatorHost, siteId: string): StorageBackupRecord[] =>
  storageBackupsSlice(emu).backups[siteId] ?? [];
export const findBackup = (emu: EmulatorHost, siteId: string, backupId: string) =>
  backupsOf(emu, siteId).find((b) => b.backupId === backupId);
/** The backup the call names, or its 404. */
export function requireBackup(call: CallContext, siteId: string, backupId: string): StorageBackupRecord {
  const b = findBackup(call.emu, siteId, backupId);
  if (!b)
    call.refuse(404, `No storage backup has the id "${backupId}" on this site; list_storage_backups lists them.`, {
      reason: 'not-found',
      backupId,
    });
  return b!;
}
export const backupBytes = (b: StorageBackupRecord) => b.files.reduce((n, f) => n + f.size, 0);

export type BackupStatus = 'archiving' | 'ready' | 'failed';

export function backupStatus(b: StorageBackupRecord, now: number): BackupStatus {
  if (b.failed) return 'failed';
  return now < b.readyAt ? 'archiving' : 'ready';
}

/** Why a backup cannot be restored, in words; null when it can. */
export function notRestorableReason(b: StorageBackupRecord, now: number): string | null {
  const status = backupStatus(b, now);
  if (status === 'archiving') return 'still being archived';
  if (status === 'failed') return 'failed';
  if (b.format < CURRENT_FORMAT) return 'older format';
  return null;
}

export function addBackup(
  emu: EmulatorHost,
  input: Omit<StorageBackupRecord, 'backupId' | 'restoreId'> & { restoreId?: string | null },
): StorageBackupRecord {
  const record: StorageBackupRecord = {
    ...input,
    backupId: emu.newId('sbk'),
    restoreId: input.restoreId ?? null,
    files: input.files.map((f) => ({ ...f })),
  };
  (storageBackupsSlice(emu).backups[input.siteId] ??= []).push(record);
  return record;
}

/** The restore of the site that has not completed yet, if any. */
export function activeRestore(emu: EmulatorHost, siteId: string): StorageRestoreRecord | undefined {
  settleRestores(emu);
  return Object.values(storageBackupsSlice(emu).restores).find((r) => r.siteId === siteId && r.appliedAt === null);
}

/** Applies the restores whose time has come: the backup's files are written, the others deleted. */
export function settleRestores(emu: EmulatorHost): void {
  const now = emu.clock.now();
  for (const r of Object.values(storageBackupsSlice(emu).restores)) {
    if (r.appliedAt !== null || r.completesAt > now) continue;
    const backup = findBackup(emu, r.siteId, r.backupId);
    const source = new Map((backup?.files ?? []).map((f) => [`${f.visibility}:${f.path}`, f]));
    for (const op of r.ops) {
      if (op.action === 'remove') deleteStorageFile(emu, r.siteId, op.path, op.visibility);
      else if (op.action === 'add' || op.action === 'replace') {
        const f = source.get(`${op.visibility}:${op.path}`);
        if (f)
          putStorageFile(emu, r.siteId, {
            path: f.path,
            visibility: f.visibility,
            contentType: f.contentType,
            contentBase64: f.contentBase64,
            size: f.size,
          });
      }
    }
    r.appliedAt = r.completesAt;
  }
}

/** Timers for restores still running (after start, and after a state was loaded). */
export function scheduleRestore(emu: EmulatorHost, r: StorageRestoreRecord): void {
  emu.clock.schedule(r.completesAt, () => settleRestores(emu));
}
