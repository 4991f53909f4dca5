// The suite's global setup (vitest.config.ts): one temporary directory for the whole run, given
// to every worker and every process it starts as TMPDIR, and removed when the run ends. The
// files' own directories (mkdtemp under tmpdir()) were left behind: about 3,000 a run, and a
// system temporary directory of half a million entries slows every test that makes one.
// The name is short (a path the CLI prints is wrapped like any other) and the directory is
// shared like /tmp (sticky, writable by all): a test plants files there as another user.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OWNER = 'SITEBUILDER_TEST_RUN_TMPDIR';

export default function setup(): () => void {
  // Each project runs the global setup: the first makes the directory, and removes it.
  if (process.env[OWNER]) return () => {};
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'sb-'));
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
