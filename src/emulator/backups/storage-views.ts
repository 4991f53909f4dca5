// What the storage backup methods answer for a backup and for a restore row.
import {
  backupBytes,
  backupStatus,
  notRestorableReason,
  type StorageBackupRecord,
  type StorageRestoreRecord,
} from './storage-state.js';
import type { EmulatorHost } from '../host.js';

export function backupView(emu: EmulatorHost, b: StorageBackupRecord) {
  const now = emu.clock.now();
  const reason = notRestorableReason(b, now);
  return {
    backupId: b.backupId,
    label: b.label,
    type: b.type,
    status: backupStatus(b, now),
    restorable: reason === null,
    ...(reason ? { notRestorableReason: reason } : {}),
    format: b.format,
    files: b.files.length,
    sizeBytes: backupBytes(b),
    createdAt: emu.iso(b.createdAt),
    readyAt: b.failed ? null : emu.iso(b.readyAt),
    ...(b.restoreId ? { restoreId: b.restoreId } : {}),
  };
}

export function restoreView(emu: EmulatorHost, r: StorageRestoreRecord) {
  const done = r.appliedAt !== null;
  return {
    _id: r.restoreId,
    restoreId: r.restoreId,
    status: done ? 'completed' : 'running',
    projectId: r.siteId,
    backupId: r.backupId,
    mode: r.mode,
    paths: r.paths,
    plan: r.plan,
    safetyBackupId: r.safetyBackupId,
    createdAt: emu.iso(r.startedAt),
    startedAt: emu.iso(r.startedAt),
    completedAt: done ? emu.iso(r.appliedAt!) : null,
  };
}
