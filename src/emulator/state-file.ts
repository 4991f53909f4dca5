// The --state file, written as a database writes its files (docs/emulator.md "--state FILE").
// At start the path is checked (its directory exists and can be written; the file, when there is
// one, is a regular file of this user, not a FIFO, a device or a symbolic link) and read
// without ever blocking, within a bound; a lock file beside it (FILE.lock, created exclusively)
// keeps a second emulator off the same state. A save writes a temporary file created exclusively
// and never through a symbolic link (O_EXCL | O_NOFOLLOW, a random name, mode 0600) in the same
// directory, fsyncs it, renames it over the file and fsyncs the directory: a planted link is never
// followed, a crash leaves the old state or the new, never half of one. A save that fails says
// where the state still is: the temporary file when it was written whole, else a file of its own
// in the system's temporary directory.
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseState, type EmulatorState } from './state.js';

/** The largest state read: far above 100,000 sites with their files (V8 holds strings up to about 512 MiB). */
export const STATE_MAX_BYTES = 400 * 1024 * 1024;

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/** The path cannot be used (checked at start, before anything runs): exit 2 with this sentence. */
export class StateFileError extends Error {}

/** A save failed; the sentence says why and where the state still is. */
export class StateSaveError extends Error {}

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';
const reason = (err: unknown) => (err as Error).message.replace(/^\w+: /, '');

/** What a file is, in a sentence ("is a FIFO"), or undefined for a regular file. */
function kindProblem(st: {
  isFile(): boolean;
  isFIFO(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isSymbolicLink()) return 'is a symbolic link (give the path of the file itself)';
  if (st.isFIFO()) return 'is a FIFO (a named pipe), not a file';
  if (st.isDirectory()) return 'is a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device, not a file';
  if (st.isSocket()) return 'is a socket, not a file';
  return 'is not a regular file';
}

/**
 * Checks that `file` can be the state file: its directory exists and can be written, and the
 * file, when it exists, is a regular file of this user that can be read and written. Throws
 * StateFileError with the sentence to print.
 */
export function checkStatePath(file: string): void {
  const path = resolve(file);
  const dir = dirname(path);
  let dirStat: ReturnType<typeof statSync>;
  try {
    dirStat = statSync(dir);
  } catch (err) {
    throw new StateFileError(`--state ${file}: its directory ${dir} cannot be used (${reason(err)}); create it first.`);
  }
  if (!dirStat.isDirectory()) throw new StateFileError(`--state ${file}: ${dir} is not a directory.`);
  // Writable as a save will write it: a file created there (access() says yes to root on a
  // read-only file system, and to anyone before the disk is full).
  const probe = join(dir, `.${basename(path)}.${randomBytes(8).toString('hex')}.probe`);
  try {
    writeExclusive(probe, '');
    unlinkSync(probe);
  } catch (err) {
    throw new StateFileError(
      `--state ${file}: nothing can be written in ${dir} (${reason(err)}), so the state could not be saved on exit; choose a file in a directory of yours.`,
    );
  }
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch (err) {
    if (errno(err) === 'ENOENT') return;
    throw new StateFileError(`--state ${file} cannot be read (${reason(err)}).`);
  }
  const kind = kindProblem(st);
  if (kind) throw new StateFileError(`--state ${file} ${kind}; give a state file, or a path where one can be created.`);
  const me = process.getuid?.();
  if (me !== undefined && st.uid !== me)
    throw new StateFileError(
      `--state ${file} belongs to another user (uid ${st.uid}), who could change it under the emulator; use a file of your own.`,
    );
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch {
    throw new StateFileError(`--state ${file} cannot be read and written by you; fix its mode or use another file.`);
  }
}

/**
 * The state in `file`, or undefined when there is none. Opened without following a link and
 * without blocking (a FIFO put there after the check is not waited on), checked to be a regular
 * file, read within STATE_MAX_BYTES.
 */
export function readStateFile(file: string): EmulatorState | undefined {
  let fd: number;
  try {
    fd = openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined;
    if (errno(err) === 'ELOOP')
      throw new StateFileError(`--state ${file} is a symbolic link; give the path of the file itself.`);
    throw new StateFileError(`--state ${file} cannot be read (${reason(err)}).`);
  }
  try {
    const st = fstatSync(fd);
    const kind = kindProblem(st);
    if (kind)
      throw new StateFileError(`--state ${file} ${kind}; give a state file, or a path where one can be created.`);
    if (st.size > STATE_MAX_BYTES)
      throw new StateFileError(
        `--state ${file} is larger than ${STATE_MAX_BYTES / 1024 / 1024} MiB, more than a state file holds.`,
      );
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n <= 0) break;
      at += n;
    }
    try {
      return parseState(buf.subarray(0, at).toString('utf8'), file);
    } catch (err) {
      throw new StateFileError(reason(err));
    }
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to a new file created exclusively (never through a link), fsync'd. */
function writeExclusive(path: string, text: string): void {
  const fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename durable; a platform that cannot open a directory loses only durability. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Durability only.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The state's text, as saved. */
export const stateText = (state: EmulatorState) => `${JSON.stringify(state, null, 1)}\n`;

/**
 * Replaces `file` with the state: a temporary file of a random name created exclusively beside
 * it, fsync'd, renamed over it, the directory fsync'd. Throws StateSaveError saying where the
 * state still is when that fails.
 */
export function saveStateFile(file: string, state: EmulatorState): void {
  const path = resolve(file);
  const dir = dirname(path);
  const text = stateText(state);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  let written = false;
  try {
    writeExclusive(tmp, text);
    written = true;
    renameSync(tmp, path);
    syncDir(dir);
    return;
  } catch (err) {
    const why = `${errno(err) || 'error'}: ${reason(err)}`;
    if (written) throw new StateSaveError(`The state could not be saved to ${file} (${why}); it is in ${tmp}.`);
    try {
      unlinkSync(tmp);
    } catch {
      // Never created, or gone.
    }
    const elsewhere = join(
      tmpdir(),
      `sitebuilder-emulator-state-${process.pid}-${randomBytes(4).toString('hex')}.json`,
    );
    try {
      writeExclusive(elsewhere, text);
    } catch {
      throw new StateSaveError(
        `The state could not be saved to ${file} (${why}), nor anywhere else; ${file} still holds the state it held before.`,
      );
    }
    throw new StateSaveError(`The state could not be saved to ${file} (${why}); it was saved to ${elsewhere} instead.`);
  }
}

/** The lock that keeps a second emulator off a state file: FILE.lock, holding the owner's pid and host. */
export interface StateLock {
  readonly path: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === 'EPERM';
  }
}

/**
 * Takes FILE.lock (created exclusively, never through a link). A lock left by an emulator of
 * this host that is gone is taken over; one held by a live emulator, or of another host, is a
 * StateFileError naming it.
 */
export function lockStateFile(file: string): StateLock {
  const path = `${resolve(file)}.lock`;
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeExclusive(path, mine);
      let released = false;
      return {
        path,
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(path, 'utf8') === mine) unlinkSync(path);
          } catch {
            // Gone already.
          }
        },
      };
    } catch (err) {
      if (errno(err) !== 'EEXIST' && errno(err) !== 'ELOOP')
        throw new StateFileError(`--state ${file}: its lock ${path} cannot be created (${reason(err)}).`);
    }
    let holder: { pid?: unknown; host?: unknown } = {};
    try {
      const st = lstatSync(path);
      if (!st.isFile())
        throw new StateFileError(`--state ${file}: ${path} ${kindProblem(st)}; remove it if no emulator uses ${file}.`);
      holder = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      if (err instanceof StateFileError) throw err;
      if (errno(err) === 'ENOENT') continue;
    }
    const pid = Number.isInteger(holder.pid) ? (holder.pid as number) : undefined;
    if (pid !== undefined && holder.host === hostname() && !alive(pid)) {
      try {
        unlinkSync(path);
      } catch {
        // Another one took it over first: the next attempt says so.
      }
      continue;
    }
    const who =
      pid !== undefined
        ? `another emulator (pid ${pid}${holder.host === hostname() ? '' : ` on ${String(holder.host)}`})`
        : 'another emulator';
    throw new StateFileError(
      `--state ${file} is in use by ${who}: two emulators on one state would lose each other's changes. Stop it, or use another file (remove ${path} if no emulator uses it).`,
    );
  }
  throw new StateFileError(`--state ${file}: its lock ${path} could not be taken; try again.`);
}
