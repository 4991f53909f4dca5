// The stored files domain: upload_storage_file (upload.ts), and the public files served at their
// permanent address, GET {origin}/storage/<siteId>/<path>, for as long as they exist. The files
// themselves are kept by files.ts, which the storage backups and listings share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { uploadedFileHeaders } from '../../file-headers.js';
import type { EmulatorHost } from '../../host.js';
import { defineDomain } from '../../types.js';
import { getStorageFile, STORAGE_DOMAIN, STORAGE_ROUTE, type StorageSlice } from './files.js';
import { uploadStorageFile } from './upload.js';

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
  handlers: { upload_storage_file: uploadStorageFile },
  http: serveStorage,
});
