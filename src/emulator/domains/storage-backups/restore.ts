// The two-call storage restore (docs/emulator.md "Backups in the emulator"): restore_storage_backup
// answers the plan and its confirmation without `confirm`, starts the restore with it, and
// get_storage_restore_status follows it. The plan is computed in plan.ts; the restore is applied
// when it completes (state.ts settleRestores).
import type { CallContext, HandlerResult } from '../../host.js';
import { listStorageFiles } from '../storage-files/files.js';
import { computePlan, confirmFor, normalizeSelectedPath, type RestoreMode, unmatchedPath } from './plan.js';
import {
  activeRestore,
  addBackup,
  backupsOf,
  backupStatus,
  CURRENT_FORMAT,
  notRestorableReason,
  requireBackup,
  restoreMs,
  scheduleRestore,
  settleRestores,
  storageBackupsSlice,
  type StorageBackupRecord,
  type StorageRestoreRecord,
} from './state.js';
import { restoreView } from './views.js';

export const PLAN_MESSAGE = 'Nothing was restored, this is the plan.';
export const PLAN_CHANGED_MESSAGE =
  'The storage changed since this plan was made, so this confirmation no longer matches. Check the new plan and confirm again!';
export const ALREADY_RUNNING_MESSAGE = 'A restore of this storage is already running!';

export function restoreStorageBackup(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  const ws = call.workspaceOf(site);
  call.requirePaidPlan(ws, 'Restoring a storage backup');
  call.requirePermission(ws, 'deleteProjects');
  const b = requireBackup(call, site._id, call.args.backupId);
  const active = activeRestore(emu, site._id);
  if (active)
    call.refuse(409, ALREADY_RUNNING_MESSAGE, { reason: 'restore-running', activeRestore: restoreView(emu, active) });
  const reason = notRestorableReason(b, call.now());
  if (reason === 'still being archived')
    call.refuse(409, 'This backup is still being archived, so it cannot be restored yet. Try again once it is ready!', {
      reason: 'backup-archiving',
    });
  if (reason === 'failed')
    call.refuse(422, 'This backup failed, so it cannot be restored!', { reason: 'backup-failed' });
  if (reason === 'older format')
    call.refuse(422, 'This backup is in an older format, so it cannot be restored!', {
      reason: 'backup-older-format',
      format: b.format,
    });

  const mode = call.args.mode as RestoreMode;
  const paths: string[] =
    mode === 'selected' ? [...new Set<string>((call.args.paths ?? []).map(normalizeSelectedPath))] : [];
  if (mode === 'selected' && paths.length === 0) {
    call.refuse(400, '`paths` is required when `mode` is selected: name files, or folders ending with a slash.', {
      reason: 'paths-required',
    });
  }
  const unmatched = mode === 'selected' ? unmatchedPath(b.files, paths) : null;
  if (unmatched) call.refuse(400, unmatched, { reason: 'path-not-in-backup' });

  const { plan, ops } = computePlan(b.files, listStorageFiles(emu, site._id), mode, paths);
  const confirm = confirmFor(b.backupId, mode, paths, ops, plan.filesSkipped);
  if (call.args.confirm === undefined) return { data: { started: false, plan, confirm }, message: PLAN_MESSAGE };
  if (call.args.confirm !== confirm)
    call.refuse(409, PLAN_CHANGED_MESSAGE, { reason: 'plan-changed', started: false, plan, confirm });
  // A restore cannot start while a backup of the same storage is still being archived.
  const archiving = backupsOf(emu, site._id).find((x) => backupStatus(x, call.now()) === 'archiving');
  if (archiving) {
    call.refuse(
      409,
      `Backup ${archiving.backupId} of this storage is still being archived, so a restore cannot start yet. Try again once it is ready!`,
      {
        reason: 'backup-archiving',
        backupId: archiving.backupId,
      },
    );
  }
  return startRestore(call, b, mode, paths, plan, ops);
}

function startRestore(
  call: CallContext,
  b: StorageBackupRecord,
  mode: RestoreMode,
  paths: string[],
  plan: ReturnType<typeof computePlan>['plan'],
  ops: ReturnType<typeof computePlan>['ops'],
): HandlerResult {
  const { emu } = call;
  const slice = storageBackupsSlice(emu);
  const now = call.now();
  const restoreId = emu.newId('srs');
  let safetyBackupId: string | null = null;
  if (plan.safetyBackup) {
    // Taken of the whole current storage, in the restore's own time: ready at once.
    const files = listStorageFiles(emu, b.siteId);
    safetyBackupId = addBackup(emu, {
      siteId: b.siteId,
      label: 'Before restore',
      type: 'before-restore',
      createdAt: now,
      readyAt: now,
      failed: false,
      format: CURRENT_FORMAT,
      files,
      restoreId,
    }).backupId;
  }
  const record: StorageRestoreRecord = {
    restoreId,
    siteId: b.siteId,
    backupId: b.backupId,
    mode,
    paths,
    plan,
    ops: ops.filter((o) => o.action !== 'unchanged'),
    safetyBackupId,
    userId: call.user._id,
    startedAt: now,
    completesAt: now + restoreMs(slice, plan.bytesWritten),
    appliedAt: null,
  };
  slice.restores[restoreId] = record;
  scheduleRestore(emu, record);
  return {
    data: { started: true, restore: restoreView(emu, record) },
    message: 'The restore started; get_storage_restore_status follows it until it reads completed.',
  };
}

export function getStorageRestoreStatus(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  settleRestores(call.emu);
  const r = storageBackupsSlice(call.emu).restores[call.args.restoreId];
  if (!r || r.siteId !== site._id)
    call.refuse(404, `No storage restore has the id "${call.args.restoreId}" on this site.`, { reason: 'not-found' });
  const view = restoreView(call.emu, r!);
  return { data: view, message: `The restore is ${view.status}.` };
}
