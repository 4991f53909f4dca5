// Files that never hang, and a broken configuration named (docs/reliability.md). The
// configuration, --message-file, --prompt-file and api's @file are opened without blocking and
// must be regular files, read within a bound: a FIFO (with no writer), a device or a directory is
// refused at once with a sentence (exit 2), in the built binary too, where a blocked open would
// not even let SIGTERM in. A config.json cut short or full of garbage is named, with what to do,
// and never read as "no token" nor saved over.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { run, tempConfigDir } from '../helpers/run.js';
import { SHAPES } from '../helpers/shapes.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/sitebuilder.js');
const built = existsSync(join(ROOT, 'dist/cli.js'));
const tmp = () => mkdtempSync(join(tmpdir(), 'sb-files-'));
/**
 * A refusal before the first request meets no answer, so no shape: those tests run in the
 * default project only (the alternate one would repeat them word for word, a dozen binaries
 * among them). What reaches the service runs in both.
 */
const ONCE = SHAPES === 'alternate';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

const fifo = (): string => {
  const path = join(tmp(), 'pipe');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
};

/** A config dir whose config.json is `make(path)`. */
function configWith(make: (path: string) => void): string {
  const dir = tempConfigDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  make(join(dir, 'config.json'));
  return dir;
}

/**
 * The built binary, with a deadline: a hang fails the test rather than the suite. Asynchronous,
 * so that the emulator in this process answers meanwhile.
 */
function binary(args: string[], env: Record<string, string>, input = '') {
  return new Promise<{ status: number | null; stderr: string; hung: boolean }>((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tmp(), ...env },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    let hung = false;
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, 10_000);
    child.on('exit', (status) => {
      clearTimeout(timer);
      done({ status, stderr, hung });
    });
    child.stdin.end(input);
  });
}

describe('a config.json that is not a file', () => {
  it.skipIf(!built || ONCE)(
    'a FIFO: refused at once, in the built binary, for every kind of command',
    async () => {
      for (const args of [
        ['workspace', 'list'],
        ['auth', 'status'],
        ['auth', 'login', '--with-token'],
        ['site', 'use', 'site_bakery'],
      ]) {
        const dir = configWith((path) => spawnSync('mkfifo', [path]));
        const res = await binary(
          args,
          { SITEBUILDER_CONFIG_DIR: dir, SITEBUILDER_BASE_URL: emu.baseUrl },
          DEMO_TOKENS.full,
        );
        expect(res.hung, args.join(' ')).toBe(false);
        expect(res.status, `${args.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr).toMatch(
          /config\.json is a FIFO \(a named pipe\), not a file sitebuilder wrote; it was not read/,
        );
      }
    },
    60_000,
  );

  it.skipIf(ONCE)('a directory: refused', async () => {
    const dir = configWith((path) => mkdirSync(path));
    const res = await run(['workspace', 'list'], { configDir: dir, env: { SITEBUILDER_BASE_URL: emu.baseUrl } });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is a directory');
  });

  it.skipIf(!built)(
    'a FIFO at the name of its lock is never read: taken for a stale lock and replaced',
    async () => {
      const dir = configWith((path) => writeFileSync(path, '{}', { mode: 0o600 }));
      spawnSync('mkfifo', [join(dir, 'config.json.lock')]);
      const res = await binary(['site', 'use', 'site_bakery'], {
        SITEBUILDER_CONFIG_DIR: dir,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_BASE_URL: emu.baseUrl,
      });
      expect(res.hung).toBe(false);
      expect(res.status, res.stderr).toBe(0);
    },
    20_000,
  );
});

describe('a broken config.json is named, with what to do', () => {
  const broken: Array<[string, string]> = [
    ['cut short', '{"currentProfile":"prod","profiles":{"prod":{"token":"sbt_demo_full_5f1c9a2e7'],
    ['garbage', '\u0000\u0007binary garbage\u00ff'],
    ['a list', '[{"token":"x"}]'],
    ['a trailing comma', '{"profiles": {"prod": {"site": "site_bakery"}},}'],
  ];

  it.skipIf(ONCE).each(broken)(
    '%s: exit 2, the file named, never "no token", never saved over',
    async (_what, text) => {
      const dir = configWith((path) => writeFileSync(path, text, { mode: 0o600 }));
      const file = join(dir, 'config.json');
      for (const argv of [
        ['workspace', 'list'],
        ['auth', 'status'],
        ['site', 'use', 'site_bakery'],
      ]) {
        const res = await run(argv, { configDir: dir, env: { SITEBUILDER_BASE_URL: emu.baseUrl } });
        expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr).toContain(`The configuration file ${file} `);
        expect(res.stderr).toContain(`mv ${file} ${file}.broken`);
        expect(res.stderr).toContain('sitebuilder auth login');
        expect(res.stderr).not.toMatch(/No token|not logged in/i);
      }
      const login = await run(['auth', 'login', '--with-token', '--base-url', emu.baseUrl], {
        configDir: dir,
        stdin: DEMO_TOKENS.full,
      });
      expect(login.code).toBe(2);
      expect(login.stderr).toContain('so the profiles and tokens it may hold are not lost');
      expect(readFileSync(file, 'utf8')).toBe(text);
      // Under --json, the refusal is a JSON document naming the file.
      const json = await run(['workspace', 'list', '--json'], {
        configDir: dir,
        env: { SITEBUILDER_BASE_URL: emu.baseUrl },
      });
      expect(JSON.parse(json.stderr).error.message).toContain(file);
    },
  );

  it('an empty config.json holds nothing: auth login saves over it', async () => {
    const dir = configWith((path) => writeFileSync(path, '', { mode: 0o600 }));
    const status = await run(['workspace', 'list'], { configDir: dir, env: { SITEBUILDER_BASE_URL: emu.baseUrl } });
    expect(status.code).toBe(4);
    const login = await run(['auth', 'login', '--with-token', '--base-url', emu.baseUrl], {
      configDir: dir,
      stdin: DEMO_TOKENS.full,
    });
    expect(login.code, login.stderr).toBe(0);
  });
});

describe('--message-file, --prompt-file and @file that are not files', () => {
  const env = () => ({ SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full });
  const lines = (path: string) => [
    ['chat', 'site_bakery', '--message-file', path],
    ['queue', 'edit', 'site_bakery', 'qi_1', '--message-file', path],
    ['site', 'create', '--workspace', 'ws_demo', '--prompt-file', path],
    ['api', 'list_sites', '-F', `workspaceId=@${path}`],
    ['api', 'list_sites', '--input', path],
  ];

  it.skipIf(!built || ONCE)(
    'a FIFO with no writer: refused at once in the built binary, nothing sent',
    async () => {
      const before = emu.control.log().length;
      for (const argv of lines(fifo())) {
        const res = await binary(argv, env());
        expect(res.hung, argv.join(' ')).toBe(false);
        expect(res.status, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr).toMatch(
          /is a FIFO \(a named pipe\), not a file; nothing was sent\. To read from a pipe, give - instead/,
        );
      }
      expect(emu.control.log().length).toBe(before);
    },
    60_000,
  );

  it.skipIf(ONCE).each([
    ['a device', '/dev/zero', /is a device, not a file/],
    ['a directory', tmpdir(), /is a directory, not a file/],
    ['a missing file', '/nonexistent/message.txt', /no such file/],
  ])('%s: refused, nothing sent', async (_what, path, sentence) => {
    for (const argv of lines(path)) {
      const res = await run(argv, { env: env() });
      expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(sentence);
    }
  });

  it.skipIf(ONCE)('a file past the bound is refused without being read whole', async () => {
    const big = join(tmp(), 'big.txt');
    writeFileSync(big, 'x'.repeat(2_000_001));
    const res = await run(['chat', 'site_bakery', '--message-file', big], { env: env() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is 2,000,001 bytes; at most 2,000,000 are read');
  });

  it('a regular file is read as before', async () => {
    const file = join(tmp(), 'brief.txt');
    writeFileSync(file, 'A flower shop in Ghent');
    const res = await run(
      ['site', 'create', '--workspace', 'ws_demo', '--prompt-file', file, '--no-follow', '--json'],
      { env: env() },
    );
    expect(res.code, res.stderr).toBe(0);
  });
});
