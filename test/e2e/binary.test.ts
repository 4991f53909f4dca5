// The built binary as a user runs it: spawned processes against an emulator on port 0, and
// the masked token prompt of `auth login` in a real terminal under tmux.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, normalize } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { startScriptServer } from '../helpers/script-server.js';
import { shapesEnv } from '../helpers/shapes.js';
import { tempConfigDir } from '../helpers/run.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = new URL('../../bin/sitebuilder.js', import.meta.url).pathname;
/** A home that is not there, and the suite's cache directory (vitest.config.ts) for the code cache. */
const BASE_ENV = {
  PATH: process.env.PATH ?? '',
  HOME: '/nonexistent',
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? '',
};
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

/** Runs the binary without blocking: the emulator answers from this same process. */
function sb(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: {
          ...BASE_ENV,
          SITEBUILDER_CONFIG_DIR: tempConfigDir(),
          // `sitebuilder emulator` answers in the shapes of this test run.
          ...shapesEnv(),
          ...env,
        },
        encoding: 'utf8',
      },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

describe('the built binary', () => {
  it('says an error thrown outside any command (a library callback) in one sentence, no stack but with --debug', async () => {
    const hanging = await startScriptServer();
    hanging.answerFor = () => ({ hang: true });
    const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-crash-'));
    const hook = join(dir, 'throw-later.cjs');
    // Thrown from a timer while the command waits on a request that never answers: the timer is
    // set once the request has gone out (a fixed delay from start-up lost the race on a loaded
    // machine, before the request was sent).
    writeFileSync(
      hook,
      `require('node:diagnostics_channel').subscribe('http.client.request.start', ({ request }) =>
        request.on('finish', () => setTimeout(() => { throw new Error('boom from a callback'); }, 50).unref()));`,
    );
    try {
      const env = {
        SITEBUILDER_BASE_URL: hanging.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        NODE_OPTIONS: `--require ${hook}`,
      };
      const plain = await sb(['workspace', 'list'], env);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toBe('error: Unexpected error: boom from a callback. Run again with --debug for details.\n');
      const debug = await sb(['workspace', 'list', '--debug'], env);
      expect(debug.code).toBe(1);
      expect(debug.stderr).toMatch(/\n\s+at /);
      expect(debug.stderr + plain.stderr).not.toContain(DEMO_TOKENS.full);
      expect(hanging.requests.length).toBeGreaterThanOrEqual(2);
    } finally {
      await hanging.close();
    }
  });

  it('prints its version and help, with the exit codes', async () => {
    const version = await sb(['--version']);
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    );
    const help = await sb(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
    const listHelp = await sb(['site', 'list', '--help']);
    expect(listHelp.stdout).toContain('--all');
    expect(await sb(['help', 'site', 'list'])).toEqual(listHelp);
  });

  it('lists sites as plain rows when piped, with no ANSI byte even with a colour terminal', async () => {
    const env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full, TERM: 'xterm-256color' };
    const res = await sb(['site', 'list', '--workspace', 'ws_demo'], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^site_bakery\tSunrise Bakery\tws_demo\t\d{4}-\d{2}-\d{2}T/m);
    expect(res.stdout + res.stderr).not.toMatch(/[\u001b\r]/);
  });

  it('exits 2 on a bad flag and 4 without a token, with one line and no stack trace', async () => {
    const bad = await sb(['site', 'list', '--frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option '--frobnicate'");
    const none = await sb(['workspace', 'list'], { SITEBUILDER_BASE_URL: emu.baseUrl });
    expect(none.code).toBe(4);
    expect(none.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses to send the token over plain http to another host, sending nothing', async () => {
    const res = await sb(['workspace', 'list'], {
      SITEBUILDER_BASE_URL: 'http://example.invalid',
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('Refusing to send the token over plain http://');
    expect(res.stderr).not.toContain(DEMO_TOKENS.full);
  });

  it('never shows the token in --debug logs', async () => {
    const res = await sb(['workspace', 'list', '--debug'], {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/\[debug\] POST list_workspaces → 200 in \d+ms request=\S+ remaining=\d+/);
    expect(res.stderr + res.stdout).not.toContain(DEMO_TOKENS.full);
  });
});

/** Runs the binary with a hook that records the files it read and the modules Node's require loaded. */
async function withReads(args: string[], env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-loaded-'));
  const hook = join(dir, 'hook.cjs');
  const report = join(dir, 'loaded.json');
  writeFileSync(
    hook,
    `const fs = require('node:fs');
    const read = [];
    const readFileSync = fs.readFileSync;
    fs.readFileSync = function (file, ...rest) { read.push(String(file)); return readFileSync.call(this, file, ...rest); };
    process.on('exit', () => fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify({ read, files: Object.keys(require.cache) })));`,
  );
  const res = await sb(args, { ...env, NODE_OPTIONS: `--require ${hook}` });
  return { ...res, ...(JSON.parse(readFileSync(report, 'utf8')) as { read: string[]; files: string[] }) };
}

describe('start-up: what a command loads', () => {
  it('answers --version and --help from package.json and dist/help/, without the CLI', async () => {
    const dist = join(BIN, '..', '..', 'dist');
    for (const [args, file] of [
      [['--version'], join(BIN, '..', '..', 'package.json')],
      [['--help'], join(dist, 'help', '_root.txt')],
      [['site', 'list', '--help'], join(dist, 'help', 'site.list.txt')],
      [['help', 'site', 'list'], join(dist, 'help', 'site.list.txt')],
    ] as const) {
      const res = await withReads([...args]);
      expect(res.code, args.join(' ')).toBe(0);
      expect(
        res.read.map((f) => normalize(f)),
        args.join(' '),
      ).toContain(file);
      expect(
        res.read.filter((f) => f.endsWith('.js') && f.includes('dist')),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('runs `site list` from CommonJS chunks read by bin/, without enquirer or the emulator', async () => {
    const env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
    const loaded = await withReads(['site', 'list', '--limit', '2'], env);
    expect(loaded.code, loaded.stderr).toBe(0);
    const dist = join(BIN, '..', '..', 'dist');
    const files = loaded.read.filter((f) => f.startsWith(dist) && f.endsWith('.js'));
    expect(files).toContain(join(dist, 'cli.js'));
    // Nothing through Node's module loader but bin/ and the hook: no package from node_modules.
    expect(loaded.files.filter((f) => f.includes('node_modules'))).toEqual([]);
    const code = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const built = [join(dist, 'cli.js'), ...readdirSync(join(dist, 'chunks')).map((f) => join(dist, 'chunks', f))]
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    // Markers of the heavy modules (the emulator's: its demo token), each in the build, none read.
    for (const marker of ['var Enquirer =', DEMO_TOKENS.full]) {
      expect(built, marker).toContain(marker);
      expect(code, marker).not.toContain(marker);
    }
    // zod and conf (with ajv) serve at build time only: not in the build at all.
    for (const marker of ['ZodError', 'ajv']) expect(built, marker).not.toContain(marker);
    // Each file bin/ reads is a pack, one script whose value maps chunk paths to their module
    // functions (scripts/build.mjs): two for `site list`, the core's and the site noun's.
    expect(files.map((f) => basename(f))).toEqual(['cli.js', expect.stringMatching(/^site-\w+\.js$/)]);
    const chunks = new Map<string, string>();
    for (const f of files)
      for (const [path, fn] of Object.entries(runInNewContext(readFileSync(f, 'latin1')) as Record<string, unknown>))
        if (!chunks.has(path)) chunks.set(path, String(fn));
    // Our own code stays small; commander's chunk (about 130 KB) comes on top.
    const commander = [...chunks.values()].filter((t) => t.includes('commander.unknownOption'));
    expect(commander).toHaveLength(1);
    const ours = [...chunks.values()].filter((t) => !commander.includes(t)).reduce((n, t) => n + t.length, 0);
    // What `site list` runs grew with gh-shaped help, the masked token, the configuration's
    // checks, the service model's readers (about 14 KB), the client split and the 404 and cut
    // hints; after the start-up pass (docs/CONTRIBUTING.md "Benchmarks"), 224.9 KB of ours and
    // 360.1 KB in all; the 404 hint of a storage restore and --choose N read back (issue 20)
    // about 330 bytes more. Loading the client's retries and the prompts' showing only when
    // needed (issue 23) took 11.5 KB off: 214.0 KB of ours and 349.3 KB in all.
    expect(ours).toBeLessThan(215_600);
    expect(Buffer.byteLength(code)).toBeLessThan(350_800);
    // ASCII (bin/ reads them as latin1), and strict, as the ES modules they came from.
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      expect(text.startsWith("'use strict';"), f).toBe(true);
      expect(/[^\x00-\x7f]/.test(text), f).toBe(false);
    }
    for (const [path, text] of chunks) expect(text, path).toMatch(/^function \([\w, ]*\) \{\n'use strict';/);
  });
});

describe('start-up: the code cache', () => {
  const cacheFiles = (dir: string) =>
    existsSync(dir) ? readdirSync(dir).flatMap((v) => readdirSync(join(dir, v)).map((f) => join(dir, v, f))) : [];

  it('keeps compiled chunks per build and uses them on the next run; a damaged entry is replaced, SITEBUILDER_NO_CODE_CACHE=1 writes none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-code-cache-'));
    const env = {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CODE_CACHE_DIR: dir,
    };
    const buildId = readFileSync(join(BIN, '..', '..', 'dist', 'build-id'), 'utf8').trim();
    // A directory of the user's choosing may be shared: what else is in it stays.
    const other = join(dir, `${process.version}-${process.arch}-0123456789abcdef`);
    mkdirSync(other);

    const first = await sb(['site', 'list', '--limit', '3'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([`${process.version}-${process.arch}-${buildId}`, basename(other)].sort());
    const files = cacheFiles(dir);
    const cli = files.find((f) => /[/\\]cli\.js\.bin$/.test(f))!;
    expect(cli).toBeDefined();
    expect(files.some((f) => /chunks_site-/.test(f))).toBe(true);
    const before = new Map(files.map((f) => [f, statSync(f).mtimeMs]));

    // Accepted: the same answer, and nothing rewritten.
    const second = await sb(['site', 'list', '--limit', '3'], env);
    expect(second.stdout).toBe(first.stdout);
    for (const f of files) expect(statSync(f).mtimeMs, f).toBe(before.get(f));

    // Rejected by V8: still the same answer, and the entry is written again.
    writeFileSync(cli, 'not a code cache');
    const third = await sb(['site', 'list', '--limit', '3'], env);
    expect(third.stdout).toBe(first.stdout);
    expect(readFileSync(cli, 'utf8')).not.toBe('not a code cache');

    const off = mkdtempSync(join(tmpdir(), 'sitebuilder-code-cache-off-'));
    const none = await sb(['site', 'list', '--limit', '3'], {
      ...env,
      SITEBUILDER_CODE_CACHE_DIR: off,
      SITEBUILDER_NO_CODE_CACHE: '1',
    });
    expect(none.stdout).toBe(first.stdout);
    expect(cacheFiles(off)).toEqual([]);
  });

  it('keeps it in the user’s cache directory, never in the package, and prunes week-old caches only there', async () => {
    // A copy of the built package, so that nothing else runs from it meanwhile.
    const root = mkdtempSync(join(tmpdir(), 'sitebuilder-copy-'));
    for (const part of ['bin', 'dist', 'completions', 'package.json'])
      cpSync(join(BIN, '..', '..', part), join(root, part), { recursive: true });
    const home = mkdtempSync(join(tmpdir(), 'sitebuilder-home-'));
    const xdg = mkdtempSync(join(tmpdir(), 'sitebuilder-xdg-'));
    const buildId = readFileSync(join(root, 'dist', 'build-id'), 'utf8').trim();
    const ours = `${process.version}-${process.arch}-${buildId}`;
    // Another build in use (written to lately) stays; week-old ones go, whatever their Node.
    const recent = `${process.version}-${process.arch}-0123456789abcdef`;
    const stale = [`${process.version}-${process.arch}-fedcba9876543210`, `v0.0.1-${process.arch}-0123456789abcdef`];
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    for (const dir of [join(home, '.cache', 'sitebuilder'), join(xdg, 'sitebuilder')]) {
      for (const other of [recent, ...stale]) mkdirSync(join(dir, other), { recursive: true });
      for (const old of stale) utimesSync(join(dir, old), eightDaysAgo, eightDaysAgo);
    }
    /** Every file and directory under the package, with its size and time. */
    const snapshot = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .sort()
        .map((f) => {
          const st = statSync(join(dir, f));
          return `${f} ${st.size} ${st.mtimeMs}`;
        });
    const before = snapshot(root);
    const runCopy = (env: Record<string, string>) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          [join(root, 'bin', 'sitebuilder.js'), 'workspace', 'list'],
          {
            // From the package's directory: a relative cache directory would land in it.
            cwd: root,
            env: {
              PATH: process.env.PATH ?? '',
              SITEBUILDER_CONFIG_DIR: tempConfigDir(),
              SITEBUILDER_BASE_URL: emu.baseUrl,
              SITEBUILDER_TOKEN: DEMO_TOKENS.full,
              ...env,
            },
            encoding: 'utf8',
          },
          (err, stdout) => resolve({ code: err ? 1 : 0, stdout }),
        );
      });

    // ~/.cache/sitebuilder.
    const plain = await runCopy({ HOME: home });
    expect([plain.code, plain.stdout]).toEqual([0, expect.stringContaining('ws_demo')]);
    expect(readdirSync(join(home, '.cache', 'sitebuilder')).sort()).toEqual([ours, recent].sort());
    expect(readdirSync(join(home, '.cache', 'sitebuilder', ours))).toContain('cli.js.bin');

    // $XDG_CACHE_HOME/sitebuilder when it is set (and absolute).
    const withXdg = await runCopy({ HOME: home, XDG_CACHE_HOME: xdg });
    expect(withXdg.stdout).toBe(plain.stdout);
    expect(readdirSync(join(xdg, 'sitebuilder')).sort()).toEqual([ours, recent].sort());
    expect(readdirSync(join(xdg, 'sitebuilder', ours))).toContain('cli.js.bin');

    // A relative XDG_CACHE_HOME is ignored (the XDG spec): ~/.cache again, nothing where it points.
    const fresh = mkdtempSync(join(tmpdir(), 'sitebuilder-home-'));
    const relativeXdg = await runCopy({ HOME: fresh, XDG_CACHE_HOME: 'relative-cache' });
    expect(relativeXdg.stdout).toBe(plain.stdout);
    expect(readdirSync(join(fresh, '.cache', 'sitebuilder'))).toEqual([ours]);
    expect(existsSync(join(root, 'relative-cache'))).toBe(false);

    expect(snapshot(root)).toEqual(before);
  });
});

describe('sitebuilder emulator -- command', () => {
  it('puts this sitebuilder on the command’s PATH and passes its exit code through', async () => {
    const res = await sb([
      'emulator',
      '--',
      'sh',
      '-c',
      'sitebuilder workspace list >/dev/null && sitebuilder --version && exit 3',
    ]);
    expect(res.stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    );
    expect(res.code).toBe(3);
  });
});

describe.skipIf(!hasTmux)('auth login in a terminal', () => {
  it('takes the token at a masked prompt and saves it 0600', async () => {
    const configDir = tempConfigDir();
    const term = new TmuxSession([process.execPath, BIN, 'auth', 'login', '--base-url', emu.baseUrl], {
      SITEBUILDER_CONFIG_DIR: configDir,
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      TERM: 'xterm-256color',
    });
    try {
      await term.waitForPrompt(/Paste your token/);
      term.send('-l', DEMO_TOKENS.full);
      term.send('Enter');
      const screen = await term.waitFor(/EXIT=\d+/);
      expect(screen).toContain('EXIT=0');
      expect(screen).toContain('Logged in to');
      expect(screen).not.toContain(DEMO_TOKENS.full);
      const file = join(configDir, 'config.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.token).toBe(DEMO_TOKENS.full);
    } finally {
      term.kill();
    }
  });
});
