// Storage backups (docs/emulator.md "Backups in the emulator"): list_storage_backups (page
// numbers), browse_storage_backup, read_storage_backup_file, create_storage_backup and
// clear_storage_backups; the two-call restore is in restore.ts. The state, the timings and the
// applying of a completed restore live in state.ts.
import { browseFolder, normalizeSelectedPath } from './plan.js';
import { getStorageRestoreStatus, restoreStorageBackup } from './restore.js';
import { seedStorageBackups } from './seed.js';
import {
  activeRestore,
  addBackup,
  archiveMs,
  backupsOf,
  backupStatus,
  CURRENT_FORMAT,
  emptyStorageBackups,
  requireBackup,
  scheduleRestore,
  settleRestores,
  STORAGE_BACKUPS_DOMAIN,
  storageBackupsSlice,
  type StorageBackupRecord,
} from './state.js';
import { listStorageFiles, type Visibility } from '../storage-files/files.js';
import { defineDomain } from '../../types.js';
import { backupView, restoreView } from './views.js';
import { storageBackupsControl } from './control.js';
import type { CallContext, HandlerResult } from '../../host.js';

export const PAGE_SIZE = 20;

/** Browsing and reading need the backup's files: not while archiving, not when it failed. */
function requireReadable(call: CallContext, b: StorageBackupRecord): void {
  const status = backupStatus(b, call.now());
  if (status === 'archiving')
    call.refuse(409, 'This backup is still being archived. Try again once it is ready!', {
      reason: 'backup-archiving',
      backupId: b.backupId,
    });
  if (status === 'failed')
    call.refuse(422, 'This backup failed, so it holds no files to show!', {
      reason: 'backup-failed',
      backupId: b.backupId,
    });
}

function listStorageBackups(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  settleRestores(call.emu);
  const page = call.args.page ?? 1;
  const all = [...backupsOf(call.emu, site._id)].reverse();
  const totalPages = Math.max(1, Math.ceil(all.length / PAGE_SIZE));
  const items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((b) => backupView(call.emu, b));
  return {
    data: { items, page, pageSize: PAGE_SIZE, totalPages, hasMore: page < totalPages },
    count: all.length,
    message: `${items.length} of ${all.length} storage backups (page ${page} of ${totalPages}).`,
  };
}

function browseStorageBackup(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const b = requireBackup(call, site._id, call.args.backupId);
  requireReadable(call, b);
  let folder = normalizeSelectedPath(call.args.path ?? '');
  if (folder && !folder.endsWith('/')) folder += '/';
  const items = browseFolder(b.files, folder, call.args.recursive === true);
  if (!items) call.refuse(404, `The backup has no folder "${folder}".`, { reason: 'not-found', path: folder });
  return {
    data: { backupId: b.backupId, path: folder, items },
    count: items!.length,
    message: `${items!.length} entries in /${folder}.`,
  };
}

function readStorageBackupFile(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const b = requireBackup(call, site._id, call.args.backupId);
  requireReadable(call, b);
  // read_storage_backup_file requires path (browse_storage_backup leaves it optional).
  const path = normalizeSelectedPath(call.args.path!);
  const copies = b.files.filter((f) => f.path === path);
  const wanted = call.args.visibility as Visibility | undefined;
  const file = wanted
    ? copies.find((f) => f.visibility === wanted)
    : (copies.find((f) => f.visibility === 'public') ?? copies[0]);
  if (!file) {
    const what = wanted && copies.length ? `no ${wanted} copy of "${path}"` : `no file at "${path}"`;
    call.refuse(404, `The backup has ${what}.`, { reason: 'not-found', path, copies: copies.map((f) => f.visibility) });
  }
  return {
    data: {
      path: file!.path,
      visibility: file!.visibility,
      size: file!.size,
      contentType: file!.contentType,
      encoding: 'base64',
      content: file!.contentBase64,
      copies: copies.map((f) => f.visibility),
    },
  };
}

function refuseWhileRestoring(call: CallContext, siteId: string, what: string): void {
  const active = activeRestore(call.emu, siteId);
  if (active) {
    call.refuse(
      409,
      `A restore of this storage is running, so ${what} until it has completed. Try again in a moment!`,
      {
        reason: 'restore-running',
        activeRestore: restoreView(call.emu, active),
      },
    );
  }
}

function createStorageBackup(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  refuseWhileRestoring(call, site._id, 'no backup can be created');
  const files = listStorageFiles(emu, site._id);
  const now = call.now();
  const b = addBackup(emu, {
    siteId: site._id,
    label: call.args.label ?? 'Manual backup',
    type: 'manual',
    createdAt: now,
    readyAt:
      now +
      archiveMs(
        storageBackupsSlice(emu),
        files.reduce((n, f) => n + f.size, 0),
      ),
    failed: false,
    format: CURRENT_FORMAT,
    files,
  });
  return {
    data: backupView(emu, b),
    message: `Storage backup ${b.backupId} is being archived; it can be restored once it is ready.`,
  };
}

function clearStorageBackups(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  call.requirePermission(call.workspaceOf(site), 'deleteProjects');
  refuseWhileRestoring(call, site._id, 'its backups cannot be deleted');
  const named: string[] | undefined = call.args.backupIds;
  for (const id of named ?? []) requireBackup(call, site._id, id);
  const slice = storageBackupsSlice(emu);
  const before = backupsOf(emu, site._id);
  const deleted = before.filter((b) => !named || named.includes(b.backupId)).map((b) => b.backupId);
  slice.backups[site._id] = before.filter((b) => !deleted.includes(b.backupId));
  return {
    data: { deleted: deleted.length, backupIds: deleted },
    message: `Deleted ${deleted.length} storage backups.`,
  };
}

export const storageBackupsDomain = defineDomain({
  name: STORAGE_BACKUPS_DOMAIN,
  init: emptyStorageBackups,
  seed: seedStorageBackups,
  attach(emu) {
    for (const r of Object.values(storageBackupsSlice(emu).restores)) if (r.appliedAt === null) scheduleRestore(emu, r);
  },
  handlers: {
    list_storage_backups: listStorageBackups,
    browse_storage_backup: browseStorageBackup,
    read_storage_backup_file: readStorageBackupFile,
    create_storage_backup: createStorageBackup,
    clear_storage_backups: clearStorageBackups,
    restore_storage_backup: restoreStorageBackup,
    get_storage_restore_status: getStorageRestoreStatus,
  },
  control: storageBackupsControl,
});
