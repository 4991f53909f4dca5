// What the storage backup methods answer for a backup and for a restore row.
import {
  backupBytes,
  backupStatus,
  notRestorableReason,
  type StorageBackupRecord,
  type StorageRestoreRecord,
} from './state.js';
import type { EmulatorHost } from '../../host.js';

/**
 * How far a piece of work that runs from `from` to `to` (emulated ms) has got, as counts: the
 * service shows none (docs/emulator.md "Storage backups"); ours grow evenly with the time.
 */
function progress(now: number, from: number, to: number, files: number, bytes: number) {
  const share = to <= from ? 1 : Math.min(1, Math.max(0, (now - from) / (to - from)));
  return {
    filesDone: Math.floor(files * share),
    filesTotal: files,
    bytesDone: Math.floor(bytes * share),
    bytesTotal: bytes,
  };
}

export function backupView(emu: EmulatorHost, b: StorageBackupRecord) {
  const now = emu.clock.now();
  const reason = notRestorableReason(b, now);
  const status = backupStatus(b, now);
  return {
    backupId: b.backupId,
    label: b.label,
    type: b.type,
    status,
    restorable: reason === null,
    ...(reason ? { notRestorableReason: reason } : {}),
    format: b.format,
    files: b.files.length,
    sizeBytes: backupBytes(b),
    createdAt: emu.iso(b.createdAt),
    readyAt: b.failed ? null : emu.iso(b.readyAt),
    ...(b.restoreId ? { restoreId: b.restoreId } : {}),
    ...(status === 'archiving'
      ? { progress: progress(now, b.createdAt, b.readyAt, b.files.length, backupBytes(b)) }
      : {}),
  };
}

export function restoreView(emu: EmulatorHost, r: StorageRestoreRecord) {
  const done = r.appliedAt !== null;
  const { plan } = r;
  const files = plan.filesAdded + plan.filesReplaced + plan.filesRemoved;
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
    progress: progress(done ? r.completesAt : emu.clock.now(), r.startedAt, r.completesAt, files, plan.bytesWritten),
  };
}
