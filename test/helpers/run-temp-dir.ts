// The suite's global setup (vitest.config.ts): one temporary directory for the whole run, given
// to every worker and every process it starts as TMPDIR, and removed when the run ends. The
// files' own directories (mkdtemp under tmpdir()) were left behind: about 3,000 a run, and a
// system temporary directory of half a million entries slows every test that makes one.
// The name is short (a path the CLI prints is wrapped like any other) and the directory is
// shared like /tmp (sticky, writable by all): a test plants files there as another user.
// It is in memory (/dev/shm) where the system has one that runs programs: the configuration
// store and the emulator's state file sync each write to the disk, as they must, and on a disk
// those waits were a fifth of some files' time; in memory a sync returns at once, the same code
// having run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWNER = 'SITEBUILDER_TEST_RUN_TMPDIR';

/** A directory under /dev/shm where a script written can be run (not mounted noexec), or none. */
function inMemory(): string | undefined {
  let dir: string | undefined;
  try {
    dir = mkdtempSync('/dev/shm/sb-');
    const probe = join(dir, 'probe');
    writeFileSync(probe, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    if (spawnSync(probe).status === 0) {
      rmSync(probe);
      return dir;
    }
  } catch {
    // No /dev/shm, or not ours to write: the system's temporary directory serves.
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  return undefined;
}

export default function setup(): () => void {
  // Each project runs the global setup: the first makes the directory, and removes it.
  if (process.env[OWNER]) return () => {};
  const before = process.env.TMPDIR;
  const dir = inMemory() ?? mkdtempSync(join(tmpdir(), 'sb-'));
  chmodSync(dir, 0o1777);
  process.env[OWNER] = dir;
  process.env.TMPDIR = dir;
  return () => {
    delete process.env[OWNER];
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
