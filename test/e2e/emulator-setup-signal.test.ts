// `sitebuilder emulator --setup` as a real process beside a real profile, stopped by SIGINT (a
// Ctrl-C): the configuration it leaves is the one it found, plus its own marked profile; and
// `--profile prod` is refused before anything starts, changing no byte (docs/guide.md
// "Trying it against the emulator").
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const PROD = { token: 'sbt_live_9f8e7d6c5b4a39281706', baseUrl: 'https://api.example.com', site: 'site_real' };

function configDir(): { dir: string; text: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'sb-setup-sig-')), 'config');
  mkdirSync(dir, { mode: 0o700 });
  const text = `${JSON.stringify({ currentProfile: 'prod', profiles: { prod: PROD } }, null, 2)}\n`;
  writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
  return { dir, text };
}

function start(argv: string[], dir: string) {
  const child = spawn(process.execPath, [BIN, 'emulator', '--setup', ...argv], {
    env: { ...process.env, SITEBUILDER_CONFIG_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, out, exited };
}

describe('emulator --setup, a real process', () => {
  it('stopped by SIGINT, leaves the real profile and the current one as they were', async () => {
    const { dir } = configDir();
    const emu = start([], dir);
    await waitFor(() => emu.out.stderr.includes('Ctrl-C stops it'), { what: 'the banner', deadlineMs: 15_000 });
    const during = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(during.currentProfile).toBe('emulator');
    expect(during.profiles.prod).toEqual(PROD);
    emu.child.kill('SIGINT');
    expect(await emu.exited).toBe(0);
    expect(emu.out.stderr).toContain('Profile prod is the current profile again.');
    const after = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    // Its own profile stays, marked, no longer naming its process.
    const { emulatorPid, ...own } = during.profiles.emulator;
    expect(emulatorPid).toBe(emu.child.pid);
    expect(after).toEqual({ currentProfile: 'prod', profiles: { prod: PROD, emulator: own } });
    expect(after.profiles.emulator.emulator).toBe(true);
  });

  it('a second --setup while the first runs: exit 2 at once naming its address and pid; nothing changes', async () => {
    const { dir } = configDir();
    const first = start([], dir);
    await waitFor(() => first.out.stderr.includes('Ctrl-C stops it'), { what: 'the banner', deadlineMs: 15_000 });
    const text = readFileSync(join(dir, 'config.json'), 'utf8');
    const address = JSON.parse(text).profiles.emulator.baseUrl;
    const second = start([], dir);
    expect(await second.exited).toBe(2);
    expect(second.out.stdout).toBe('');
    expect(second.out.stderr).toBe(
      `error: An emulator (pid ${first.child.pid}) already runs at ${address} for profile emulator; use it as it is, stop it first (Ctrl-C in its terminal), start this one without --setup, or give it a profile of its own: \`sitebuilder emulator --setup --profile emulator-2\`.\n`,
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).currentProfile).toBe('prod');
  });

  it('refuses --profile of a real profile before it starts: no byte of the file changes', async () => {
    const { dir, text } = configDir();
    const emu = start(['--profile', 'prod'], dir);
    expect(await emu.exited).toBe(2);
    expect(emu.out.stdout).toBe('');
    expect(emu.out.stderr).toContain('Profile prod holds a token for https://api.example.com');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(text);
  });
});
