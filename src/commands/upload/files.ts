// Checks the files named on the command line before anything is sent: each must exist, be a
// regular file, be readable and fit the size limit, and its storage name must be usable.
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { UPLOAD_MAX_BYTES, UPLOAD_NAME_MAX, contentTypeFor } from '../../api/upload-limits.js';
import { UsageError } from '../../errors.js';
import { formatSize } from '../../io/bytes.js';

export interface UploadPlanItem {
  /** The path as given. */
  file: string;
  /** The storage name: the folder (if any) and the file's base name. */
  name: string;
  size: number;
  contentType: string;
}

/** Normalises --folder: no leading or trailing slash, no empty, `.` or `..` segment. */
export function normalizeFolder(folder: string | undefined): string {
  if (folder === undefined) return '';
  const parts = folder.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..' || /[\\\u0000-\u001f\u007f]/.test(p))) {
    throw new UsageError(
      `--folder ${JSON.stringify(folder)} is not a usable storage folder; use names separated by /, without . or .. parts.`,
    );
  }
  return parts.join('/');
}

function checkName(name: string, file: string): void {
  if (name.length > UPLOAD_NAME_MAX) {
    throw new UsageError(
      `The storage name of ${file} would be ${name.length} characters long; at most ${UPLOAD_NAME_MAX} are allowed. Nothing was uploaded.`,
    );
  }
  if (/[\\\u0000-\u001f\u007f]/.test(name)) {
    throw new UsageError(
      `The name of ${file} holds a backslash or a control character, which storage does not accept; rename it. Nothing was uploaded.`,
    );
  }
}

/**
 * The file as opened for reading (so it is readable), checked on its descriptor: opened
 * non-blocking, a FIFO is seen for what it is instead of waiting for a writer (file-source.ts
 * opens it again, the same way, when it is sent).
 */
function openedStat(file: string): Stats {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function planUploads(files: string[], folder: string | undefined): UploadPlanItem[] {
  const prefix = normalizeFolder(folder);
  const seen = new Map<string, string>();
  return files.map((file) => {
    let size: number;
    try {
      const st = openedStat(file);
      if (st.isDirectory())
        throw new UsageError(
          `${file} is a directory; upload takes files (for example ${file}/*). Nothing was uploaded.`,
        );
      if (!st.isFile()) throw new UsageError(`${file} is not a regular file. Nothing was uploaded.`);
      size = st.size;
    } catch (err) {
      if (err instanceof UsageError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : (code ?? (err as Error).message);
      throw new UsageError(`Cannot read ${file} (${why}). Nothing was uploaded.`, { file });
    }
    if (size > UPLOAD_MAX_BYTES) {
      throw new UsageError(
        `${file} is ${size.toLocaleString('en-US')} bytes (${formatSize(size)}); files up to ${UPLOAD_MAX_BYTES.toLocaleString('en-US')} bytes (${formatSize(UPLOAD_MAX_BYTES)}) can be uploaded. Nothing was uploaded.`,
        { file, size },
      );
    }
    const name = prefix ? `${prefix}/${basename(file)}` : basename(file);
    checkName(name, file);
    const other = seen.get(name);
    if (other !== undefined) {
      throw new UsageError(
        `${other} and ${file} would both be stored as ${name}; upload them separately or into different --folder. Nothing was uploaded.`,
      );
    }
    seen.set(name, file);
    return { file, name, size, contentType: contentTypeFor(name) };
  });
}
