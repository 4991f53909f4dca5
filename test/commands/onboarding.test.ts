// Trying sitebuilder in one minute (README.md "Quick start"): `emulator --setup` points a profile
// at the running emulator and makes it current, and puts the previous one back when it stops;
// `auth login` with no service address says how to set one, or to try the emulator, at once.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { createTestIO } from '../../src/io/io.js';
import { waitFor } from '../helpers/wait-for.js';
import { run } from '../helpers/run.js';

const configIn = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

function startEmulator(argv: string[], config: string, env: Record<string, string> = {}) {
  const io = createTestIO();
  io.stdinStream.end();
  const controller = new AbortController();
  const done = main(['emulator', ...argv], {
    io,
    env: { SITEBUILDER_CONFIG_DIR: config, ...env },
    clock: new FakeClock(),
    signal: controller.signal,
  });
  return { io, stop: () => controller.abort(), done };
}

describe('emulator --setup', () => {
  it('saves a profile that reaches it, current while it runs; the one before is current again after', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'sb-setup-')), 'config');
    // A real profile, current before: it must be left as it is, and be current again.
    await run(['site', 'use', 'site_real', '--profile', 'work'], { configDir: config });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...configIn(config), currentProfile: 'work' }));
    const emu = startEmulator(['--setup'], config);
    await waitFor(() => emu.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    const saved = configIn(config);
    expect(saved.currentProfile).toBe('emulator');
    expect(saved.profiles.work).toEqual({ site: 'site_real' });
    expect(emu.io.stdoutText()).toContain(saved.profiles.emulator.baseUrl);
    expect(emu.io.stderrText()).toContain('sitebuilder chat site_bakery "Add an about page"');
    expect(emu.io.stderrText()).toContain('profile work is current again then');
    expect(emu.io.stderrText()).not.toContain(saved.profiles.emulator.token);

    // Another terminal: no token, no address, nothing exported.
    const list = await run(['site', 'list', '--workspace', 'ws_demo'], { configDir: config });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('site_bakery');
    const status = await run(['auth', 'status'], { configDir: config, tty: true });
    expect(status.stdout).toMatch(/^Profile +emulator \(the current profile\)$/m);
    expect(status.stdout).toContain(`Service     ${saved.profiles.emulator.baseUrl} (from profile emulator)\n`);

    emu.stop();
    expect(await emu.done).toBe(0);
    expect(emu.io.stderrText()).toContain('Profile work is the current profile again.');
    const after = configIn(config);
    expect(after.currentProfile).toBe('work');
    // Kept for the next start, which points it at the new address.
    expect(after.profiles.emulator.token).toBe(saved.profiles.emulator.token);
  });

  it('leaves the current profile alone when someone chose another one meanwhile, and takes --profile', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'sb-setup-')), 'config');
    const emu = startEmulator(['--setup', '--profile', 'local'], config);
    await waitFor(() => emu.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    expect(configIn(config).currentProfile).toBe('local');
    expect(emu.io.stderrText()).toContain('`sitebuilder auth status --profile local`');
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...configIn(config), currentProfile: 'other' }));
    emu.stop();
    expect(await emu.done).toBe(0);
    expect(configIn(config).currentProfile).toBe('other');
    expect(emu.io.stderrText()).not.toContain('current profile again');
  });

  it('started again, takes the port its profile points at where it is free: a chat still retrying finds it', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'sb-setup-')), 'config');
    const first = startEmulator(['--setup'], config);
    await waitFor(() => first.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    const address = configIn(config).profiles.emulator.baseUrl;
    first.stop();
    expect(await first.done).toBe(0);
    const second = startEmulator(['--setup'], config);
    await waitFor(() => second.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    expect(configIn(config).profiles.emulator.baseUrl).toBe(address);
    expect(second.io.stdoutText()).toContain(`Emulator listening on ${address}`);
    second.stop();
    expect(await second.done).toBe(0);
    // Where something else holds that port, another one.
    const holder = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((done) => holder.listen(Number(new URL(address).port), '127.0.0.1', done));
    try {
      const third = startEmulator(['--setup', '--profile', 'emulator'], config);
      await waitFor(() => third.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
      expect(third.io.stdoutText()).not.toContain(address);
      third.stop();
      expect(await third.done).toBe(0);
    } finally {
      holder.close();
    }
  });

  it('a second --setup while the first runs is refused at once, naming it; the first keeps its profile', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'sb-setup-')), 'config');
    await run(['site', 'use', 'site_real', '--profile', 'work'], { configDir: config });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ ...configIn(config), currentProfile: 'work' }));
    const first = startEmulator(['--setup'], config);
    await waitFor(() => first.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    const text = readFileSync(join(config, 'config.json'), 'utf8');
    const address = configIn(config).profiles.emulator.baseUrl;
    const second = startEmulator(['--setup'], config);
    expect(await second.done).toBe(2);
    expect(second.io.stdoutText()).toBe('');
    expect(second.io.stderrText()).toBe(
      `error: An emulator already runs at ${address} for profile emulator; use it as it is, stop it first (Ctrl-C in its terminal), start this one without --setup, or give it a profile of its own: \`sitebuilder emulator --setup --profile emulator-2\`.\n`,
    );
    expect(readFileSync(join(config, 'config.json'), 'utf8')).toBe(text);
    // Every command still reaches the first.
    const list = await run(['site', 'list', '--workspace', 'ws_demo'], { configDir: config });
    expect(list.code).toBe(0);
    // Another profile of its own nests: stopped, the first's profile is current again.
    const nested = startEmulator(['--setup', '--profile', 'emulator-2'], config);
    await waitFor(() => nested.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    expect(configIn(config).currentProfile).toBe('emulator-2');
    nested.stop();
    expect(await nested.done).toBe(0);
    expect(configIn(config).currentProfile).toBe('emulator');
    expect((await run(['site', 'list', '--workspace', 'ws_demo'], { configDir: config })).code).toBe(0);
    first.stop();
    expect(await first.done).toBe(0);
    expect(configIn(config).currentProfile).toBe('work');
  });

  it('puts the profile back when its terminal is closed (SIGHUP), writing nothing more to it', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'sb-setup-')), 'config');
    const emu = startEmulator(['--setup'], config);
    await waitFor(() => emu.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    const shown = emu.io.stderrText();
    expect(configIn(config).currentProfile).toBe('emulator');
    process.emit('SIGHUP', 'SIGHUP');
    expect(await emu.done).toBe(0);
    expect(configIn(config).currentProfile).toBeUndefined();
    expect(emu.io.stderrText()).toBe(shown);
  });

  it('is refused with -- command, and SITEBUILDER_EMULATOR_SPEED is checked like --speed', async () => {
    const both = await run(['emulator', '--setup', '--', 'true']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
    const speed = await run(['emulator', '--setup'], { env: { SITEBUILDER_EMULATOR_SPEED: 'fast' } });
    expect(speed.code).toBe(2);
    expect(speed.stderr).toContain('SITEBUILDER_EMULATOR_SPEED takes a number above 0');
  });
});

describe('auth login without a service address', () => {
  it('says how to set one or to try the emulator, before asking for a token', async () => {
    const res = await run(['auth', 'login', '--with-token'], { stdin: 'sbt_whatever_token_1234\n' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('No service address is set: pass --base-url URL');
    expect(res.stderr).toContain('sitebuilder emulator --setup');
    expect(res.stderr).not.toContain('Could not resolve');
  });

  it('and any command with a token but no address says the same, sending nothing', async () => {
    const res = await run(['site', 'list'], { env: { SITEBUILDER_TOKEN: 'sbt_whatever_token_1234' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('No service address is set');
  });
});
