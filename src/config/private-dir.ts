// The configuration directory is private: it holds tokens, and its base URLs decide where a
// token is sent. A directory others can write to (a shared 1777 one), or that belongs to someone
// else, is refused, never chmod'ed: nothing is saved there, and a file found there is not read,
// since anyone could have put it there. A directory sitebuilder creates is 0700 whatever the
// umask; a directory of the user's own that is only readable by others is tightened to 0700.
// Files are replaced whole: written to a temporary file, fsync'ed, renamed over the old one,
// under the lock of file-lock.ts, so a process killed at any point leaves the old file or the new.
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { sanitizeInline } from '../io/sanitize.js';
import { CliError } from '../errors.js';
import { ConfigDirError, ConfigFileError } from './errors.js';

type Problem = { what: string; fix: 'chmod' | 'elsewhere' };

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

/** What makes `st` unsafe for the current user; undefined where there is no POSIX owner (Windows). */
function problemOf(st: Stats, kind: 'directory' | 'file'): Problem | undefined {
  const me = process.getuid?.();
  if (me === undefined) return undefined;
  if (kind === 'directory' ? !st.isDirectory() : !st.isFile()) return { what: `is not a ${kind}`, fix: 'elsewhere' };
  if (st.uid !== me) return { what: `belongs to another user (uid ${st.uid})`, fix: 'elsewhere' };
  if (st.mode & 0o022) return { what: `can be written by other users (mode ${octal(st.mode)})`, fix: 'chmod' };
  return undefined;
}

function refusal(path: string, kind: 'directory' | 'file', problem: Problem, outcome: string): ConfigDirError {
  const shown = sanitizeInline(path);
  const fix =
    problem.fix === 'chmod'
      ? `\`chmod ${kind === 'directory' ? 700 : 600} ${shown}\` if only you use it, or set SITEBUILDER_CONFIG_DIR to a new directory (sitebuilder creates it with mode 0700)`
      : 'set SITEBUILDER_CONFIG_DIR to a directory of your own (a new one is created with mode 0700)';
  const subject = kind === 'directory' ? `The configuration directory ${shown}` : `The configuration file ${shown}`;
  return new ConfigDirError(
    `${subject} ${problem.what}, so someone else could replace the saved token or its address; ${outcome}. Use a private directory: ${fix}.`,
  );
}

/** Creates the directory (0700) or checks the one that exists; throws ConfigDirError when others can change it. */
export function ensurePrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode goes through the umask: set it exactly on the directory just made.
  if (created !== undefined) chmodSync(dir, 0o700);
  const st = statSync(dir);
  const problem = problemOf(st, 'directory');
  if (problem) throw refusal(dir, 'directory', problem, 'nothing was saved there');
  if (process.getuid && (st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** The largest file of the directory read: far above any configuration. */
export const PRIVATE_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The text of `path` in `dir`, or undefined when there is none; throws ConfigDirError when others
 * could have written it, or when it is not a regular file. Opened without blocking: a FIFO put
 * there is refused at once, never waited on (a blocked open would not even let SIGTERM in).
 */
export function readPrivateFile(dir: string, path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw fileFailure(err, dir, 'read');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new ConfigDirError(
        `The configuration file ${sanitizeInline(path)} is ${st.isFIFO() ? 'a FIFO (a named pipe)' : st.isDirectory() ? 'a directory' : 'not a regular file'}, not a file sitebuilder wrote; it was not read. Move it aside and run \`sitebuilder auth login\`, or set SITEBUILDER_CONFIG_DIR to another directory.`,
      );
    const fileProblem = problemOf(st, 'file');
    if (fileProblem) throw refusal(path, 'file', fileProblem, 'it was not read');
    const dirProblem = problemOf(statSync(dir), 'directory');
    if (dirProblem) throw refusal(dir, 'directory', dirProblem, 'nothing was read from it');
    if (st.size > PRIVATE_FILE_MAX_BYTES)
      throw new ConfigFileError(
        `${sanitizeInline(path)} is ${st.size} bytes, far more than a configuration holds; it was not read. Move it away to start afresh.`,
      );
    const buf = Buffer.alloc(st.size);
    let at = 0;
    for (let n = 1; n > 0 && at < buf.length; at += n) n = readSync(fd, buf, at, buf.length - at, null);
    return buf.subarray(0, at).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Replaces `path` with `text`, mode 0600. The caller holds the file's lock (the temporary name is fixed). */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.tmp`;
  rmSync(temp, { force: true });
  const fd = openSync(temp, 'wx', 0o600);
  try {
    // The open mode went through the umask.
    fchmodSync(fd, 0o600);
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  syncDir(path.slice(0, path.lastIndexOf('/')) || '/');
}

/** Makes the rename durable; some platforms cannot open a directory, and lose only durability. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Durability only.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Read-modify-write of one file of the directory, under its lock: `change` gets the current text
 * (undefined when there is none) and returns the new one.
 */
export async function updatePrivateFile(
  dir: string,
  name: string,
  change: (text: string | undefined) => string,
): Promise<void> {
  const path = `${dir}/${name}`;
  try {
    ensurePrivateDir(dir);
    const { withFileLock } = await import('./file-lock.js');
    await withFileLock(`${path}.lock`, () => writeFileAtomic(path, change(readPrivateFile(dir, path))));
  } catch (err) {
    throw fileFailure(err, dir, 'saved');
  }
}

/** A refusal of the file system as one sentence; our own refusals pass unchanged. */
function fileFailure(err: unknown, dir: string, outcome: 'read' | 'saved'): unknown {
  if (err instanceof CliError || !(err instanceof Error) || !(err as NodeJS.ErrnoException).code) return err;
  return new ConfigFileError(
    `The configuration in ${sanitizeInline(dir)} could not be ${outcome} (${sanitizeInline(err.message)}); ${outcome === 'read' ? 'nothing was read' : 'nothing was saved'}. Check that the directory is yours and writable, or set SITEBUILDER_CONFIG_DIR to another one.`,
  );
}
