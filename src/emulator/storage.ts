// The sites' file storage, shared by upload_storage_file (publish domain), list_storage_files
// and the storage backups and restores. A path may exist twice, once public and once private
// (the service's "other public or private copy of a restored file"). Public files are served
// at their permanent address, GET {origin}/storage/<siteId>/<path>, for as long as they exist.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { uploadedFileHeaders } from './file-headers.js';
import { defineDomain } from './types.js';
import type { EmulatorHost } from './host.js';

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

function serveStorage(req: IncomingMessage, res: ServerResponse, url: URL, emu: EmulatorHost): boolean {
  if (!url.pathname.startsWith(STORAGE_ROUTE)) return false;
  const rest = url.pathname.slice(STORAGE_ROUTE.length);
  const slash = rest.indexOf('/');
  let siteId: string;
  let path: string;
  try {
    siteId = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash));
    path =
      slash < 0
        ? ''
        : rest
            .slice(slash + 1)
            .split('/')
            .map(decodeURIComponent)
            .join('/');
  } catch {
    siteId = '';
    path = '';
  }
  const file = path ? getStorageFile(emu, siteId, path, 'public') : undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Use GET.\n');
    return true;
  }
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No public file at this address.\n');
    return true;
  }
  const body = Buffer.from(file.contentBase64, 'base64');
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(body.length),
    'last-modified': new Date(file.updatedAt).toUTCString(),
    'cache-control': 'public, max-age=60',
    ...uploadedFileHeaders(file.contentType, file.path),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

export const storageFilesDomain = defineDomain<StorageSlice>({
  name: STORAGE_DOMAIN,
  init: () => ({ sites: {} }),
  http: serveStorage,
});
