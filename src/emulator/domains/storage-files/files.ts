// The sites' file storage, shared by upload_storage_file (upload.ts), list_storage_files
// (domains/lists/) and the storage backups and restores (domains/storage-backups/). A path may
// exist twice, once public and once private (the service's "other public or private copy of a
// restored file"); domain.ts serves the public ones at their permanent address.
import type { EmulatorHost } from '../../host.js';

export type Visibility = 'public' | 'private';

export interface StorageFile {
  path: string;
  visibility: Visibility;
  size: number;
  contentType: string;
  contentBase64: string;
  createdAt: number;
  updatedAt: number;
}

export interface StorageSlice {
  /** siteId → `${visibility}:${path}` → file. */
  sites: Record<string, Record<string, StorageFile>>;
}

export const STORAGE_DOMAIN = 'storageFiles';
export const STORAGE_ROUTE = '/storage/';

const keyOf = (visibility: Visibility, path: string) => `${visibility}:${path}`;

function slice(emu: EmulatorHost): StorageSlice {
  let s = emu.state.domains[STORAGE_DOMAIN] as StorageSlice | undefined;
  if (!s) {
    s = { sites: {} };
    emu.state.domains[STORAGE_DOMAIN] = s;
  }
  return s;
}

/** Every file of the site, sorted by path then visibility (public first). */
export function listStorageFiles(emu: EmulatorHost, siteId: string): StorageFile[] {
  return Object.values(slice(emu).sites[siteId] ?? {}).sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : a.visibility === b.visibility ? 0 : a.visibility === 'public' ? -1 : 1,
  );
}

export function getStorageFile(
  emu: EmulatorHost,
  siteId: string,
  path: string,
  visibility: Visibility = 'public',
): StorageFile | undefined {
  return slice(emu).sites[siteId]?.[keyOf(visibility, path)];
}

/** Adds or replaces a file (same path and visibility). */
export function putStorageFile(
  emu: EmulatorHost,
  siteId: string,
  file: Omit<StorageFile, 'createdAt' | 'updatedAt' | 'size'> & { size?: number; createdAt?: number },
): StorageFile {
  const s = slice(emu);
  const files = (s.sites[siteId] ??= {});
  const now = emu.clock.now();
  const key = keyOf(file.visibility, file.path);
  const record: StorageFile = {
    path: file.path,
    visibility: file.visibility,
    contentType: file.contentType,
    contentBase64: file.contentBase64,
    size: file.size ?? Buffer.byteLength(file.contentBase64, 'base64'),
    createdAt: files[key]?.createdAt ?? file.createdAt ?? now,
    updatedAt: now,
  };
  files[key] = record;
  return record;
}

export function deleteStorageFile(emu: EmulatorHost, siteId: string, path: string, visibility: Visibility): boolean {
  const files = slice(emu).sites[siteId];
  if (!files?.[keyOf(visibility, path)]) return false;
  delete files[keyOf(visibility, path)];
  return true;
}

/** The permanent address of a public file: each path segment encoded, slashes kept. */
export function storageAddress(origin: string, siteId: string, path: string): string {
  return `${origin}${STORAGE_ROUTE}${encodeURIComponent(siteId)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}
