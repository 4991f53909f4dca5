// A lock file beside the file it guards, so that read-modify-write cycles of parallel processes
// (two `site use`, a `logout` beside a `login`) never interleave. Created with O_EXCL; it holds
// {pid, host, at, id}. A lock whose owner is gone is taken over: on this host when its pid no
// longer exists, otherwise (another host, or content not written yet) once it is older than
// STALE_MS. Taking over happens under a second O_EXCL file (<lock>.break), and only if the lock
// is still the very one judged stale, so two waiters never both remove it. A lock held by a live
// process is waited for, up to WAIT_MS, then refused: a write takes milliseconds, so it is a
// stopped process, and taking its lock could let its late write undo ours.
//
// The waiting is real time, not ctx.clock: the other holders are other processes.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { ConfigLockedError } from './errors.js';

const WAIT_MS = 10_000;
const STALE_MS = 5_000;

interface Holder {
  text: string;
  pid?: number;
  host?: string;
  ageMs: number;
}

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates `path` only if it does not exist; false when another process has it. */
function createExclusive(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock's text; undefined when it is not a regular file (no lock of ours: a FIFO, a device). */
function readWithoutBlocking(path: string): string | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    // Without blocking: a FIFO at the lock's name is never waited on, and no lock: stale at once.
    const read = readWithoutBlocking(path);
    if (read === undefined) return { text: '', ageMs: Number.POSITIVE_INFINITY };
    const text = read;
    const ageMs = Date.now() - statSync(path).mtimeMs;
    try {
      const { pid, host } = JSON.parse(text) as { pid?: unknown; host?: unknown };
      if (Number.isInteger(pid) && typeof host === 'string') return { text, pid: pid as number, host, ageMs };
    } catch {
      // Not written yet, or not ours: judged by age alone.
    }
    return { text, ageMs };
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined;
    throw err;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === 'EPERM';
  }
}

function isStale(holder: Holder): boolean {
  if (holder.pid !== undefined && holder.host === hostname()) return !pidAlive(holder.pid);
  return holder.ageMs > STALE_MS;
}

/** Removes the stale lock judged from `judged`, if no one replaced it meanwhile. */
function breakStale(path: string, judged: Holder): boolean {
  const guard = `${path}.break`;
  if (!createExclusive(guard, String(process.pid))) {
    // Another waiter is breaking it. A guard left by a process killed within those microseconds
    // is removed once old.
    const left = readHolder(guard);
    if (left && left.ageMs > STALE_MS) unlinkQuietly(guard);
    return false;
  }
  try {
    if (readHolder(path)?.text !== judged.text) return false;
    unlinkQuietly(path);
    return true;
  } finally {
    unlinkQuietly(guard);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if (errno(err) !== 'ENOENT') throw err;
  }
}

async function acquire(path: string, waitMs: number): Promise<string> {
  const text = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    at: Date.now(),
    id: Math.random().toString(36).slice(2),
  });
  const deadline = Date.now() + waitMs;
  let delay = 2;
  for (;;) {
    if (createExclusive(path, text)) return text;
    const holder = readHolder(path);
    if (!holder) continue;
    if (isStale(holder) && breakStale(path, holder)) continue;
    if (Date.now() > deadline) {
      const who = holder.pid === undefined ? 'another process' : `process ${holder.pid}`;
      throw new ConfigLockedError(
        `The configuration is locked by ${who} (${path}) for ${Math.round(holder.ageMs / 1000)} s; nothing was saved. Try again once it has finished, or delete that file if no sitebuilder is running.`,
      );
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
}

function release(path: string, text: string): void {
  if (readHolder(path)?.text === text) unlinkQuietly(path);
}

/** Runs `fn` while holding the lock file `path`; the lock is released even when `fn` throws. */
export async function withFileLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  { waitMs = WAIT_MS }: { waitMs?: number } = {},
): Promise<T> {
  const text = await acquire(path, waitMs);
  try {
    return await fn();
  } finally {
    release(path, text);
  }
}
