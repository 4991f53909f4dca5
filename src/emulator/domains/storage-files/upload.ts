// upload_storage_file: stores a public file in the site's storage and answers its permanent
// address. The size limit (100 MiB) is shared with the CLI (src/api/upload-limits.ts).
import { UPLOAD_MAX_BYTES, contentTypeFor } from '../../../api/upload-limits.js';
import { originOf } from '../../origin.js';
import type { SiteRecord } from '../../state.js';
import { putStorageFile, storageAddress } from './files.js';
import type { CallContext, HandlerResult } from '../../host.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function uploadStorageFile(call: CallContext): HandlerResult {
  const { emu } = call;
  const site: SiteRecord = call.requireSite(call.args.projectId);
  const name = String(call.args.fileName);
  const segments = name.split('/');
  if (
    name.startsWith('/') ||
    segments.some((s) => s === '' || s === '.' || s === '..') ||
    /[\\\u0000-\u001f\u007f]/.test(name)
  ) {
    call.refuse(
      400,
      '`fileName` must be a relative path of names separated by /, without empty, . or .. parts, backslashes or control characters.',
    );
  }
  const b64 = String(call.args.contentBase64).replace(/\s+/g, '');
  if (b64.length % 4 !== 0 || !BASE64.test(b64)) call.refuse(400, '`contentBase64` is not valid base64.');
  const size = Buffer.byteLength(b64, 'base64');
  if (size > UPLOAD_MAX_BYTES) {
    call.refuse(
      413,
      `The file is ${size.toLocaleString('en-US')} bytes; files up to ${UPLOAD_MAX_BYTES.toLocaleString('en-US')} bytes (100 MiB) can be uploaded.`,
      {
        size,
        maxSize: UPLOAD_MAX_BYTES,
      },
    );
  }
  const file = putStorageFile(emu, site._id, {
    path: name,
    visibility: 'public',
    contentType: call.args.contentType ?? contentTypeFor(name),
    contentBase64: b64,
    size,
  });
  return {
    data: {
      url: storageAddress(originOf(emu), site._id, file.path),
      path: file.path,
      size: file.size,
      contentType: file.contentType,
      visibility: file.visibility,
      updatedAt: emu.iso(file.updatedAt),
    },
    message: 'The file was uploaded.',
  };
}
