// `sitebuilder api <destructive method>` as a user runs it (the built binary): in a real
// terminal (tmux) it asks, naming what the method does, and sends only on yes; piped
// (`echo y | …`) and under CI=true it never asks and sends nothing (exit 5); --yes sends it.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { itemsIn, shapesEnv } from '../helpers/shapes.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
let emu: RunningEmulator;
let backupId: string;
const sessions: TmuxSession[] = [];
const configDir = () => join(mkdtempSync(join(tmpdir(), 'sb-api-destructive-')), 'config');

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  const res = await fetch(`${emu.baseUrl}/v1/list_backups`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: 'site_bakery' }),
  });
  backupId = itemsIn('list_backups', ((await res.json()) as { data: unknown }).data)[0]._id;
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await emu.close();
});

const env = () => ({
  SITEBUILDER_BASE_URL: emu.baseUrl,
  SITEBUILDER_TOKEN: DEMO_TOKENS.full,
  SITEBUILDER_CONFIG_DIR: configDir(),
  ...shapesEnv(),
});
const restore = () => ['api', 'restore_backup', '-f', 'projectId=site_bakery', '-f', `backupId=${backupId}`];
const restores = () => emu.emulator.log.list({ method: 'restore_backup' });

/** `sh -c '<line>'` with the binary as $SB; stdin not a terminal. */
function sh(
  line: string,
  extra: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) base[k] = v;
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', line], {
      env: { ...base, NO_COLOR: '1', SB: `${process.execPath} ${BIN}`, ...env(), ...extra },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('api with a destructive method, the built binary', () => {
  it('`echo y |` and CI=true never confirm: exit 5, nothing sent; --yes sends it', async () => {
    const args = restore().join(' ');
    const piped = await sh(`echo y | $SB ${args}`);
    expect(piped.code).toBe(5);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).toContain('pass --yes to confirm. Nothing was changed.');
    const ci = await sh(`$SB ${args}`, { CI: 'true' });
    expect(ci.code).toBe(5);
    expect(restores()).toHaveLength(0);
    const yes = await sh(`$SB ${args} --yes`);
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout).success).toBe(true);
    expect(restores()).toHaveLength(1);
  });

  it.skipIf(!hasTmux)('asks in a terminal: no sends nothing (exit 130), yes sends it once', async () => {
    const before = restores().length;
    const no = new TmuxSession([process.execPath, BIN, ...restore()], env());
    sessions.push(no);
    const asked = await no.waitForPrompt(/Go ahead\?/);
    expect(asked).toContain('Calling restore_backup on site site_bakery (destructive):');
    expect(asked).toContain(
      'Replace every page, component and setting with a backup’s; takes a Pre-restore Backup first.',
    );
    no.send('n', 'Enter');
    expect(await no.waitFor(/EXIT=\d+/)).toContain('EXIT=130');
    expect(restores()).toHaveLength(before);
    const yes = new TmuxSession([process.execPath, BIN, ...restore()], env());
    sessions.push(yes);
    await yes.waitForPrompt(/Go ahead\?/);
    yes.send('y', 'Enter');
    expect(await yes.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
    expect(restores()).toHaveLength(before + 1);
  });
});
