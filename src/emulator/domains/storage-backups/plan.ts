// The storage restore plan, as pure functions over a backup's files and the current storage:
// what a full or selected restore would add, replace, leave, remove and skip, and the confirm
// value derived from it. Files are compared by path, visibility and size only, so a file
// rewritten to the same size and visibility goes unnoticed (as the service says of itself).
import { createHash } from 'node:crypto';
import type { StorageFile, Visibility } from '../storage-files/files.js';

export type RestoreMode = 'full' | 'selected';

export interface PlanFile {
  path: string;
  visibility: Visibility;
  size: number;
}

export interface PlanOp {
  action: 'add' | 'replace' | 'unchanged' | 'remove';
  path: string;
  visibility: Visibility;
  /** The backup's size (add, replace, unchanged) or the current size (remove). */
  size: number;
  /** The current size, for replace and unchanged. */
  currentSize?: number;
}

export interface StoragePlan {
  filesAdded: number;
  filesReplaced: number;
  filesUnchanged: number;
  filesRemoved: number;
  bytesWritten: number;
  bytesRemoved: number;
  safetyBackup: boolean;
  /** Paths storage no longer accepts; those files stay as they are. */
  filesSkipped: string[];
  /** Emulator addition (the service documents counts only): the files named. */
  replacedFiles: PlanFile[];
  removedFiles: PlanFile[];
}

// Storage stopped accepting these in names; older backups may still hold such paths.
const REFUSED_CHARACTERS = /[\\:*?"<>|\u0000-\u001f\u007f]/;

export function isAcceptedPath(path: string): boolean {
  if (!path || path.length > 1024 || REFUSED_CHARACTERS.test(path)) return false;
  return path.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** A selected path: a leading slash is dropped; a trailing slash makes it a folder ('' is the top). */
export const normalizeSelectedPath = (p: string): string => p.replace(/^\/+/, '');

export function selects(paths: string[], filePath: string): boolean {
  return paths.some((p) => (p === '' || p.endsWith('/') ? filePath.startsWith(p) : filePath === p));
}

/** The first selected path that matches no file of the backup, with why; null when all match. */
export function unmatchedPath(files: StorageFile[], paths: string[]): string | null {
  for (const p of paths) {
    if (files.some((f) => selects([p], f.path))) continue;
    const asFolder = !p.endsWith('/') && files.some((f) => f.path.startsWith(`${p}/`));
    return asFolder
      ? `The backup has no file at "${p}", but it has a folder there; end the path with a slash ("${p}/") to restore the folder.`
      : `The backup has no ${p.endsWith('/') ? 'folder' : 'file'} at "${p}"; browse_storage_backup lists what it holds.`;
  }
  return null;
}

const key = (f: { visibility: Visibility; path: string }) => `${f.visibility}:${f.path}`;
const other = (v: Visibility): Visibility => (v === 'public' ? 'private' : 'public');
const byPath = (a: PlanOp, b: PlanOp) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : a.visibility < b.visibility ? -1 : a.visibility > b.visibility ? 1 : 0;

export function computePlan(
  backupFiles: StorageFile[],
  currentFiles: StorageFile[],
  mode: RestoreMode,
  paths: string[],
): { plan: StoragePlan; ops: PlanOp[] } {
  const current = new Map(currentFiles.map((f) => [key(f), f]));
  const inScope = mode === 'full' ? backupFiles : backupFiles.filter((f) => selects(paths, f.path));
  const skipped = [...new Set(inScope.filter((f) => !isAcceptedPath(f.path)).map((f) => f.path))].sort();
  const restored = inScope.filter((f) => isAcceptedPath(f.path));
  const restoredKeys = new Set(restored.map(key));
  const ops: PlanOp[] = [];
  for (const b of restored) {
    const c = current.get(key(b));
    if (!c) ops.push({ action: 'add', path: b.path, visibility: b.visibility, size: b.size });
    else
      ops.push({
        action: c.size === b.size ? 'unchanged' : 'replace',
        path: b.path,
        visibility: b.visibility,
        size: b.size,
        currentSize: c.size,
      });
  }
  if (mode === 'full') {
    for (const c of currentFiles)
      if (!restoredKeys.has(key(c)))
        ops.push({ action: 'remove', path: c.path, visibility: c.visibility, size: c.size });
  } else {
    // Only the other public or private copy of a restored file goes.
    for (const b of restored) {
      const twin = current.get(key({ path: b.path, visibility: other(b.visibility) }));
      if (twin && !restoredKeys.has(key(twin)))
        ops.push({ action: 'remove', path: twin.path, visibility: twin.visibility, size: twin.size });
    }
  }
  ops.sort(byPath);
  const of = (a: PlanOp['action']) => ops.filter((o) => o.action === a);
  const sum = (list: PlanOp[]) => list.reduce((n, o) => n + o.size, 0);
  const file = (o: PlanOp): PlanFile => ({
    path: o.path,
    visibility: o.visibility,
    size: o.action === 'replace' ? o.currentSize! : o.size,
  });
  const [added, replaced, unchanged, removed] = [of('add'), of('replace'), of('unchanged'), of('remove')];
  return {
    ops,
    plan: {
      filesAdded: added.length,
      filesReplaced: replaced.length,
      filesUnchanged: unchanged.length,
      filesRemoved: removed.length,
      bytesWritten: sum(added) + sum(replaced),
      bytesRemoved: sum(removed),
      safetyBackup: replaced.length + removed.length > 0,
      filesSkipped: skipped,
      replacedFiles: replaced.map(file),
      removedFiles: removed.map(file),
    },
  };
}

/** Derived from the plan (every file's action, visibility and sizes) and the request. */
export function confirmFor(
  backupId: string,
  mode: RestoreMode,
  paths: string[],
  ops: PlanOp[],
  skipped: string[],
): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ backupId, mode, paths: mode === 'full' ? [] : [...paths].sort(), skipped }));
  for (const o of ops) h.update(`\n${o.action}|${o.visibility}|${o.path}|${o.size}|${o.currentSize ?? ''}`);
  return `rc_${h.digest('hex').slice(0, 16)}`;
}

export interface BrowseItem {
  type: 'file' | 'folder';
  name: string;
  path: string;
  size: number;
  /** Files: which copies the backup holds. */
  visibility?: Visibility | 'both';
  copies?: Array<{ visibility: Visibility; size: number; contentType: string }>;
  /** Folders: how many files below. */
  files?: number;
}

/** The entries of one folder ('' is the top), or every file below it when recursive. */
export function browseFolder(files: StorageFile[], folder: string, recursive: boolean): BrowseItem[] | null {
  const below = files.filter((f) => f.path.startsWith(folder));
  if (folder && below.length === 0) return null;
  const items = new Map<string, BrowseItem>();
  for (const f of below) {
    const rest = f.path.slice(folder.length);
    const slash = rest.indexOf('/');
    if (slash >= 0 && !recursive) {
      const path = `${folder}${rest.slice(0, slash + 1)}`;
      const item = items.get(path) ?? { type: 'folder', name: rest.slice(0, slash), path, size: 0, files: 0 };
      item.size += f.size;
      item.files! += 1;
      items.set(path, item);
      continue;
    }
    const item = items.get(f.path) ?? {
      type: 'file',
      name: recursive ? f.path.slice(folder.length) : rest,
      path: f.path,
      size: 0,
      copies: [],
    };
    item.size += f.size;
    item.copies!.push({ visibility: f.visibility, size: f.size, contentType: f.contentType });
    item.visibility = item.copies!.length > 1 ? 'both' : f.visibility;
    items.set(f.path, item);
  }
  return [...items.values()].sort((a, b) =>
    a.type !== b.type ? (a.type === 'folder' ? -1 : 1) : a.path < b.path ? -1 : 1,
  );
}
