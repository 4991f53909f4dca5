// The new-user trial of a quick start, as real processes: runs remembered against one emulator
// are not believed against another (src/config/runs.ts keys them by address and profile), and a
// run the emulator started afresh no longer has is forgotten with one line, never a failure
// (src/commands/chat/latest-run.ts). examples/publish.sh runs as its header says beside it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/sitebuilder.js');
const tmp = mkdtempSync(join(tmpdir(), 'sb-restart-'));
const shimDir = join(tmp, 'bin');
mkdirSync(shimDir);
writeFileSync(join(shimDir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(shimDir, 'sitebuilder'), 0o755);
const hasJq = spawnSync('sh', ['-c', 'command -v jq']).status === 0;
const SPEED = '60';

const config = join(tmp, 'config');
const baseEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) env[k] = v;
  delete env.CI;
  return {
    ...env,
    PATH: `${shimDir}:${process.env.PATH}`,
    NO_COLOR: '1',
    HOME: tmp,
    SITEBUILDER_CONFIG_DIR: config,
    SITEBUILDER_EMULATOR_SPEED: SPEED,
    SITEBUILDER_EMULATOR_SHAPES: 'default',
  };
};

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
});

/** `sitebuilder emulator --setup` in the background, as terminal 1 of the quick start. */
async function setupEmulator() {
  const child = spawn(process.execPath, [BIN, 'emulator', '--setup'], {
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += d));
  child.stderr!.on('data', (d) => (out.stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  await waitFor(() => out.stderr.includes('Ctrl-C stops it'), { what: 'the banner', deadlineMs: 20_000 });
  const stop = async () => {
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  };
  return {
    out,
    stop,
    baseUrl: JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.emulator.baseUrl,
  };
}

/** One shell line, as a person types it in terminal 2. */
function sh(
  line: string,
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', line], {
      cwd: ROOT,
      env: { ...baseEnv(), SITEBUILDER_CLOCK_SPEED: SPEED, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('runs remembered against an earlier emulator', () => {
  it('a question left waiting, the emulator started again: chat asks nothing of the old run; publish.sh runs beside it', async () => {
    const first = await setupEmulator();
    const asked = await sh('sitebuilder chat site_recipes "Add a tiny page #ask" --yes');
    expect(asked.code, asked.stderr).toBe(10);
    const jobId = /--job (job_\w+)/.exec(asked.stderr)?.[1] ?? /--job (job_\w+)/.exec(asked.stdout)?.[1];
    expect(jobId).toBeDefined();
    const done = await sh('sitebuilder chat site_bakery "Add an about page" --yes');
    expect(done.code, done.stderr).toBe(0);
    await first.stop();

    // Started again with no --state: the same port, none of the runs.
    const second = await setupEmulator();
    expect(second.baseUrl).toBe(first.baseUrl);
    const again = await sh('sitebuilder chat site_recipes "Add a menu page"');
    expect(again.code, again.stderr).toBe(5);
    expect(again.stderr).toContain(`warning: Run ${jobId}, remembered here, is not on the service at`);
    expect(again.stderr).not.toContain('No job has the id');
    const yes = await sh('sitebuilder chat site_recipes "Add a menu page" --yes');
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).not.toContain('warning:');

    // The header's line of examples/publish.sh, beside the quick start's emulator and profile.
    if (hasJq) {
      const published = await sh('SITEBUILDER_SITE=site_bakery sitebuilder emulator -- ./examples/publish.sh');
      expect(published.code, published.stderr).toBe(0);
      expect(published.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sites\/site_bakery\/\n$/);
      expect(published.stderr).not.toMatch(/No job has the id|not there when run|remembered here/);
    }
    await second.stop();
  }, 120_000);
});
