// No token is overwritten without consent (docs/guide.md "Authentication and profiles"), with a
// real profile beside the emulator's: `emulator --setup` writes only into a profile it made
// (marked "emulator": true) and puts back what it changed when it stops; `auth login` never
// saves into the emulator's profile a token for another address, replaces a saved token only
// after a confirmation or --yes, and checks the address before it asks for a token.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { createTestIO } from '../../src/io/io.js';
import { run } from '../helpers/run.js';
import { SHAPES } from '../helpers/shapes.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { waitFor } from '../helpers/wait-for.js';

const REAL = { token: 'sbt_live_9f8e7d6c5b4a39281706', baseUrl: 'https://api.example.com', site: 'site_real' };

/** A configuration directory holding a real profile `prod`, current, and `config.json`'s text. */
function withProd(extra: Record<string, unknown> = {}): { dir: string; text: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'sb-consent-')), 'config');
  mkdirSync(dir, { mode: 0o700 });
  const text = `${JSON.stringify({ currentProfile: 'prod', profiles: { prod: REAL, ...extra } }, null, 2)}\n`;
  writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
  return { dir, text };
}

const read = (dir: string) => readFileSync(join(dir, 'config.json'), 'utf8');
const config = (dir: string) => JSON.parse(read(dir));

function emulatorSetup(argv: string[], dir: string) {
  const io = createTestIO();
  io.stdinStream.end();
  const controller = new AbortController();
  const done = main(['emulator', '--setup', ...argv], {
    io,
    env: { SITEBUILDER_CONFIG_DIR: dir },
    clock: new FakeClock(),
    signal: controller.signal,
  });
  return { io, stop: () => controller.abort(), done };
}

// The configuration file around `emulator --setup`, whose emulators take the shapes of the
// environment given to main() (none: the default ones in either project), and refusals made
// before anything starts; the one login among them is the next describe's, which runs in both.
describe.skipIf(SHAPES === 'alternate')('emulator --setup beside a real profile', () => {
  it('writes only its own profile, marked, and puts the real one back as it was when stopped', async () => {
    const { dir } = withProd();
    const emu = emulatorSetup([], dir);
    await waitFor(() => emu.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    const during = config(dir);
    expect(during.currentProfile).toBe('emulator');
    expect(during.profiles.prod).toEqual(REAL);
    expect(during.profiles.emulator).toMatchObject({ token: DEMO_TOKENS.full, emulator: true });
    emu.stop();
    expect(await emu.done).toBe(0);
    const after = config(dir);
    expect(after.currentProfile).toBe('prod');
    expect(after.profiles.prod).toEqual(REAL);
    // Its own stays, marked, for the next start; it no longer names this process.
    const { emulatorPid, ...own } = during.profiles.emulator;
    expect(emulatorPid).toBe(process.pid);
    expect(after.profiles.emulator).toEqual(own);
  });

  it('refuses --profile NAME of a real profile before starting, and changes no byte', async () => {
    const { dir, text } = withProd();
    const res = await run(['emulator', '--setup', '--profile', 'prod'], { configDir: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Profile prod holds a token for https://api.example.com');
    expect(res.stderr).toContain('`sitebuilder emulator --setup --profile emulator`');
    expect(res.stdout).not.toContain('Emulator listening');
    expect(read(dir)).toBe(text);
  });

  it('refuses a profile named `emulator` that a person logged in to elsewhere', async () => {
    const { dir, text } = withProd({ emulator: { token: 'sbt_mine_123456789012', baseUrl: 'https://x.example' } });
    const res = await run(['emulator', '--setup'], { configDir: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('`sitebuilder emulator --setup --profile emulator-local`');
    expect(read(dir)).toBe(text);
  });

  it('refuses any other saved profile, whatever it holds: an empty one, a site only, an earlier unmarked one', async () => {
    const others = {
      empty: {},
      scratch: { site: 'site_docs' },
      legacy: { token: DEMO_TOKENS.full, baseUrl: 'http://127.0.0.1:1' },
      loopback: { baseUrl: 'http://127.0.0.1:2' },
    };
    const { dir, text } = withProd(others);
    for (const name of Object.keys(others)) {
      const res = await run(['emulator', '--setup', '--profile', name], { configDir: dir });
      expect(res.code, name).toBe(2);
      expect(res.stderr, name).toContain(`Profile ${name} `);
      expect(res.stderr, name).toContain('`sitebuilder emulator --setup` did not make it; it is left as it is');
      expect(res.stdout, name).not.toContain('Emulator listening');
      expect(read(dir), name).toBe(text);
    }
  });

  it('refuses a profile logged in with a demo token at the emulator’s own address (issue 20)', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const { dir } = withProd();
      const login = await run(['auth', 'login', '--profile', 'stage', '--base-url', emu.baseUrl, '--with-token'], {
        configDir: dir,
        stdin: `${DEMO_TOKENS.teammate}\n`,
      });
      expect(login.code, login.stderr).toBe(0);
      const before = read(dir);
      expect(config(dir).profiles.stage).toEqual({ token: DEMO_TOKENS.teammate, baseUrl: emu.baseUrl });
      const res = await run(['emulator', '--setup', '--profile', 'stage'], { configDir: dir });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`Profile stage holds a token for ${emu.baseUrl} but`);
      expect(res.stderr).toContain('`sitebuilder emulator --setup --profile emulator`');
      expect(read(dir)).toBe(before);
    } finally {
      await emu.close();
    }
  });

  it('stopped, gives back exactly what was there, beside its own profile', async () => {
    const { dir, text } = withProd({ scratch: { site: 'site_docs' } });
    const emu = emulatorSetup([], dir);
    await waitFor(() => emu.io.stderrText().includes('Ctrl-C stops it'), { what: 'the banner' });
    expect(config(dir).profiles.emulator.emulatorPid).toBe(process.pid);
    emu.stop();
    expect(await emu.done).toBe(0);
    // The whole file is what it was, but for the emulator's own profile (kept for the next start).
    const { emulator: own, ...mine } = config(dir).profiles;
    expect(own).toEqual({ token: DEMO_TOKENS.full, baseUrl: own.baseUrl, emulator: true });
    expect({ ...config(dir), profiles: mine }).toEqual(JSON.parse(text));
  });
});

describe('auth login', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(() => emu.close());
  const tokenCalls = () => emu.control.log().filter((e) => e.path === '/v1/token').length;

  it('never saves into the emulator’s profile a token for another address', async () => {
    const { dir } = withProd({ emulator: { token: DEMO_TOKENS.full, baseUrl: emu.baseUrl, emulator: true } });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config(dir), currentProfile: 'emulator' }));
    const text = read(dir);
    const before = tokenCalls();
    const res = await run(['auth', 'login', '--with-token', '--base-url', 'https://api.other.example'], {
      configDir: dir,
      stdin: 'sbt_live_other_token_1234\n',
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Profile emulator is the one `sitebuilder emulator --setup` keeps');
    expect(res.stderr).toContain('`sitebuilder auth login --profile default --base-url https://api.other.example`');
    expect(read(dir)).toBe(text);
    expect(tokenCalls()).toBe(before);
    // Its own address takes another token of the emulator's, with --yes since one is saved.
    const same = await run(['auth', 'login', '--with-token', '--yes'], { configDir: dir, stdin: DEMO_TOKENS.narrow });
    expect(same.code).toBe(0);
    expect(config(dir).profiles.emulator).toEqual({ token: DEMO_TOKENS.narrow, baseUrl: emu.baseUrl, emulator: true });
  });

  it('replaces a saved token only with --yes (exit 5 without, nothing sent or saved)', async () => {
    const { dir } = withProd();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { prod: { ...REAL, token: DEMO_TOKENS.readonly, baseUrl: emu.baseUrl } } }),
    );
    const text = read(dir);
    const before = tokenCalls();
    const argv = ['auth', 'login', '--with-token', '--profile', 'prod'];
    const refused = await run(argv, { configDir: dir, stdin: DEMO_TOKENS.full });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('Profile prod already holds another token (sbt_demo_…0735); pass --yes');
    expect(refused.stderr).not.toContain(DEMO_TOKENS.full);
    expect(read(dir)).toBe(text);
    expect(tokenCalls()).toBe(before);
    // The same token again replaces nothing: no question.
    expect((await run(argv, { configDir: dir, stdin: DEMO_TOKENS.readonly })).code).toBe(0);
    const yes = await run([...argv, '--yes'], { configDir: dir, stdin: DEMO_TOKENS.full });
    expect(yes.code).toBe(0);
    expect(config(dir).profiles.prod).toEqual({ ...REAL, token: DEMO_TOKENS.full, baseUrl: emu.baseUrl });
  });

  it('on a terminal asks before the token is pasted; No keeps the saved one', async () => {
    const { dir } = withProd();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { prod: { ...REAL, baseUrl: emu.baseUrl } } }));
    const text = read(dir);
    const no = new ScriptedPrompter([{ confirm: false }]);
    const declined = await run(['auth', 'login', '-p', 'prod'], { configDir: dir, tty: true, prompter: no });
    expect(declined.code).toBe(130);
    expect(no.asked).toEqual(['Replace it?']);
    expect(declined.stderr).toContain(`Profile prod already holds a token (sbt_live_…1706, for ${emu.baseUrl}).`);
    expect(read(dir)).toBe(text);
    const yes = new ScriptedPrompter([{ confirm: true }, { input: DEMO_TOKENS.full }]);
    const replaced = await run(['auth', 'login', '-p', 'prod'], { configDir: dir, tty: true, prompter: yes });
    expect(replaced.code).toBe(0);
    expect(yes.asked).toEqual(['Replace it?', 'Paste your token']);
    expect(config(dir).profiles.prod.token).toBe(DEMO_TOKENS.full);
  });

  it('checks the address before it asks for a token', async () => {
    const none = new ScriptedPrompter([]);
    // Nothing answers there: said with where the address came from, nothing asked.
    const dead = await run(['auth', 'login', '--base-url', 'http://127.0.0.1:9'], { tty: true, prompter: none });
    expect(dead.code).toBe(1);
    expect(dead.stderr.replace(/\s+/g, ' ')).toContain(
      'check the address (it comes from --base-url) and your network, then try again. Nothing was asked or saved.',
    );
    const env = await run(['auth', 'login'], {
      tty: true,
      prompter: none,
      env: { SITEBUILDER_BASE_URL: 'http://example.com' },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('Refusing to send the token over plain http:// to example.com');
    expect(none.asked).toEqual([]);
  });
});
