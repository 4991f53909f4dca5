// Parallel processes writing one configuration directory: the built binary's `site use` in many
// profiles at once, its `auth logout` while other profiles are written, and writers killed -9
// while they write or hold the lock (test/helpers/config-writer.ts). Every process that says it
// saved, saved; a logout is never undone; the file always parses.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/config/file-lock.js';
import { writeFileAtomic } from '../../src/config/private-dir.js';
import { ConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/run.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = new URL('../../bin/sitebuilder.js', import.meta.url).pathname;
let writer: string;

beforeAll(async () => {
  writer = join(mkdtempSync(join(tmpdir(), 'sitebuilder-writer-')), 'config-writer.mjs');
  await build({
    entryPoints: [new URL('../helpers/config-writer.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile: writer,
    logLevel: 'warning',
  });
});

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

function sb(args: string[], configDir: string): Promise<Done> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', SITEBUILDER_CONFIG_DIR: configDir },
        encoding: 'utf8',
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const saved = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

/** Sends SIGKILL and resolves once the process is gone and reaped. */
function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }
  });
}

function startWriter(dir: string, ...args: string[]) {
  const child = spawn(process.execPath, [writer, dir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return { child, out: () => out, err: () => err };
}

describe('parallel configuration writers', () => {
  it('20 `site use` processes in 20 profiles at once: every one is saved', async () => {
    const dir = tempConfigDir();
    // Enough for a store without the lock to lose writes every time: with the lock taken out of
    // a copy of dist/, 20 such processes lost 8 to 18 saves in each of 10 trials, and 9 to 18
    // with the file read before the lock was taken (on 2 cores, loaded or not).
    const n = 20;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => sb(['site', 'use', `site_${i}`, '--profile', `p${i}`], dir)),
    );
    for (const [i, res] of results.entries()) {
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe(
        `warning: not logged in, so site_${i} was not checked.\nDefault site of profile p${i} is now site_${i}.\n`,
      );
    }
    const profiles = saved(dir).profiles;
    const lost = Array.from({ length: n }, (_, i) => i).filter((i) => profiles[`p${i}`]?.site !== `site_${i}`);
    expect(lost).toEqual([]);
    expect(Object.keys(profiles)).toHaveLength(n);
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 60_000);

  it('`auth logout` while another writer has read the file and not yet saved: the token never comes back', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'config.json');
    const baseUrl = 'http://127.0.0.1:9';
    const store = new ConfigStore(dir);
    await store.updateProfile('p0', () => ({ baseUrl }));
    // How long a logout takes on this machine now: one with no token to forget, which saves nothing.
    const started = Date.now();
    const idle = await sb(['auth', 'logout', '--profile', 'p0'], dir);
    expect(idle.stderr).toBe('Profile p0 had no saved token.\n');
    // Long enough for a logout to write, short of the 10 s a lock is waited for (file-lock.ts).
    const holdMs = Math.min(2 * (Date.now() - started) + 100, 5_000);
    for (let round = 0; round < 2; round++) {
      const token = `sbt_round${round}_secret`;
      await store.updateProfile('p0', () => ({ token, baseUrl }));
      let logout: Promise<Done> | undefined;
      // Another writer's read-modify-write, as the store does it but slow: it holds the lock and
      // has read the file, token and all, while the logout starts, and saves once the file changed
      // or the logout had time to write. A logout that wrote outside the lock is undone: with a copy
      // of dist/ whose logout did so, in the first round of each of 3 runs (one logout beside 10
      // `site use`, this test before, caught it in 3 rounds of 20).
      await withFileLock(`${file}.lock`, async () => {
        const read = readFileSync(file, 'utf8');
        logout = sb(['auth', 'logout', '--profile', 'p0'], dir);
        const until = Date.now() + holdMs;
        await waitFor(() => Date.now() > until || readFileSync(file, 'utf8') !== read, {
          what: 'the hold to end',
          deadlineMs: holdMs + 1_000,
        });
        const data = JSON.parse(read);
        data.profiles[`w${round}`] = { site: `site_${round}` };
        writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
      });
      const res = await (logout as Promise<Done>);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('Logged out of profile p0.\n');
      const text = readFileSync(file, 'utf8');
      expect(text, `round ${round}`).not.toContain(token);
      // Nor did the logout undo the other writer's save.
      const profiles = JSON.parse(text).profiles;
      expect(profiles.p0, `round ${round}`).toEqual({ baseUrl });
      for (let w = 0; w <= round; w++) expect(profiles[`w${w}`], `round ${round}`).toEqual({ site: `site_${w}` });
    }
  }, 60_000);

  it('a writer killed -9 while it holds the lock: the next one takes the lock over, the file parses', async () => {
    const dir = tempConfigDir();
    await new ConfigStore(dir).updateProfile('before', () => ({ site: 'site_before' }));
    const holder = startWriter(dir, 'hold');
    await waitFor(() => holder.out().includes('holding'), { what: 'the writer to hold the lock', detail: holder.err });
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.json.lock', 'config.json.tmp']);
    await kill9(holder.child);

    const next = await sb(['site', 'use', 'site_after', '--profile', 'after'], dir);
    expect(next.code, next.stderr).toBe(0);
    expect(saved(dir).profiles).toEqual({ before: { site: 'site_before' }, after: { site: 'site_after' } });
    expect(readdirSync(dir)).toEqual(['config.json']);
  }, 30_000);

  it('writers killed -9 at any point of their writes: what they said they saved is there, the file parses', async () => {
    const dir = tempConfigDir();
    for (let round = 0; round < 10; round++) {
      const w = startWriter(dir, 'loop', 'loop');
      // A different number of writes each round, so the kill falls at a different point.
      const lines = await waitFor(
        () => {
          const done = w.out().split('\n').filter(Boolean);
          return done.length > round && done;
        },
        { what: `writes of round ${round}`, detail: w.err },
      );
      await kill9(w.child);
      const said = Number(w.out().split('\n').filter(Boolean).at(-1) ?? lines.at(-1));
      const site = Number(saved(dir).profiles.loop.site.replace('site_', ''));
      // Saved before it was printed; at most the one being written when killed is more.
      expect(site - said, `round ${round}`).toBeGreaterThanOrEqual(0);
      expect(site - said, `round ${round}`).toBeLessThanOrEqual(1);
      // The next writer goes through, whether the killed one held the lock or not.
      await new ConfigStore(dir).updateProfile(`after${round}`, () => ({ site: 'ok' }));
      expect(saved(dir).profiles[`after${round}`]).toEqual({ site: 'ok' });
      expect(readdirSync(dir)).toEqual(['config.json']);
    }
  }, 60_000);
});
