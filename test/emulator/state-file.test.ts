// The --state file, written as a database writes its files (docs/emulator.md "--state FILE"):
// planted symbolic links are never followed (by another user, where this machine lets the test
// become one), a path that cannot hold the state is refused at start (exit 2) rather than at exit,
// a FIFO never hangs it, a lock keeps a second emulator off the file, the state is saved on
// SIGINT, SIGTERM and SIGHUP with the command of `emulator --` told too, and a failed save exits
// non-zero saying where the state still is.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, Emulator } from '../../src/emulator/index.js';
import { saveStateFile } from '../../src/emulator/state-file.js';
import { createTestIO } from '../../src/io/io.js';
import { waitFor } from '../helpers/wait-for.js';
import { send } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/sitebuilder.js');
const built = existsSync(join(ROOT, 'dist/cli.js'));
const tmp = () => mkdtempSync(join(tmpdir(), 'sb-state-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** A file of ours others must not be able to make us overwrite. */
function victim(): string {
  const file = join(tmp(), 'precious');
  writeFileSync(file, 'precious data\n', { mode: 0o600 });
  return file;
}

/** `emulator` through main(), in-process, with a buffered IO; resolves with the code. */
async function emulatorCommand(argv: string[], env: Record<string, string> = {}) {
  const io = createTestIO();
  io.stdinStream.end();
  const code = await main(['emulator', ...argv], {
    io,
    env: { SITEBUILDER_CONFIG_DIR: join(tmp(), 'config'), ...env },
    clock: new FakeClock(),
    signal: new AbortController().signal,
  });
  return { code, stderr: io.stderrText(), stdout: io.stdoutText() };
}

/** The built binary: `emulator --json …`, its first line parsed. */
async function binary(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'emulator', '--json', ...args], {
    env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(tmp(), 'c'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c));
  child.stderr?.on('data', (c: Buffer) => (err += c));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const line = await waitFor(() => out.includes('\n') && out.split('\n')[0], {
    what: 'the first line',
    detail: () => err,
  });
  return { child, doc: JSON.parse(line), exited, stderr: () => err };
}

async function addSite(baseUrl: string, name: string): Promise<void> {
  const res = await send(baseUrl, '/v1/create_site', {
    token: DEMO_TOKENS.full,
    body: { workspaceId: 'ws_demo', prompt: name },
  });
  expect(res.status).toBe(200);
}

const savedNames = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')).core.sites as Array<{ name: string }>).map((s) => s.name);

describe('planted symbolic links', () => {
  it('at every name a save could be expected to use: none is followed', () => {
    const dir = tmp();
    const file = join(dir, 'emu.json');
    const precious = victim();
    // The old predictable name (emu.json.<pid>.tmp) for pids around ours, and the usual others.
    const names = [`${file}.tmp`, join(dir, '.emu.json.tmp'), `${file}.lock`, `${file}~`];
    for (let pid = process.pid - 50; pid <= process.pid + 50; pid++) names.push(`${file}.${pid}.tmp`);
    for (const name of names) symlinkSync(precious, name);
    const emu = new Emulator({ clock: undefined });
    saveStateFile(file, emu.snapshot());
    expect(readFileSync(precious, 'utf8')).toBe('precious data\n');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('sitebuilder-emulator-state');
    // No temporary file is left behind.
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp') && !lstatSync(join(dir, n)).isSymbolicLink())).toEqual([]);
  });

  const root = process.getuid?.() === 0;
  it.skipIf(!root)('planted by another user (nobody) in a shared directory: none is followed', () => {
    // A directory everyone may write to (sticky, as /tmp), where the other user plants links to our file.
    const shared = tmp();
    chmodSync(shared, 0o1777);
    const file = join(shared, 'emu.json');
    const precious = victim();
    chmodSync(join(precious, '..'), 0o755);
    const plant = [
      `for pid in $(seq ${process.pid - 50} ${process.pid + 50}); do ln -s '${precious}' '${file}.'$pid'.tmp'; done`,
      `ln -s '${precious}' '${file}.tmp'`,
      `ln -s '${precious}' '${shared}/.emu.json.tmp'`,
    ].join('; ');
    const planted = spawnSync('sh', ['-c', plant], { uid: 65534, gid: 65534 });
    expect(planted.status, String(planted.stderr)).toBe(0);
    expect(lstatSync(`${file}.tmp`).uid).toBe(65534);
    saveStateFile(file, new Emulator().snapshot());
    expect(readFileSync(precious, 'utf8')).toBe('precious data\n');
    expect(lstatSync(file).isFile()).toBe(true);
    // The state file the other user plants itself is refused at start, unread and unwritten.
    const theirs = join(shared, 'theirs.json');
    expect(spawnSync('sh', ['-c', `ln -s '${precious}' '${theirs}'`], { uid: 65534, gid: 65534 }).status).toBe(0);
    return emulatorCommand(['--state', theirs]).then((res) => {
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('is a symbolic link');
      expect(readFileSync(precious, 'utf8')).toBe('precious data\n');
    });
  });

  it('the state file itself, replaced by a link while the emulator runs: the link is replaced, not followed', async () => {
    const file = join(tmp(), 'emu.json');
    const precious = victim();
    const run = startInProcess(['--json', '--state', file]);
    const doc = JSON.parse(await waitFor(() => run.io.stdoutText().split('\n')[0] || undefined, { what: 'the line' }));
    await addSite(doc.baseUrl, 'Kept through a planted link');
    writeFileSync(file, '{}');
    unlinkSync(file);
    symlinkSync(precious, file);
    run.stop();
    expect(await run.done).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe('precious data\n');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(savedNames(file)).toContain('Kept through a planted link');
  });
});

function startInProcess(argv: string[]) {
  const io = createTestIO();
  io.stdinStream.end();
  const controller = new AbortController();
  const done = main(['emulator', ...argv], {
    io,
    env: { SITEBUILDER_CONFIG_DIR: join(tmp(), 'config') },
    clock: new FakeClock(),
    signal: controller.signal,
  });
  return { io, stop: () => controller.abort(), done };
}

describe('a path that cannot hold the state is refused at start', () => {
  const fifo = join(tmp(), 'emu.fifo');
  spawnSync('mkfifo', [fifo]);
  const readOnly = tmp();
  const cases: Array<[string, () => string, RegExp]> = [
    ['a FIFO', () => fifo, /is a FIFO/],
    ['a device', () => '/dev/null', /is a device/],
    ['a directory', () => tmp(), /is a directory/],
    ['a file in a missing directory', () => join(tmp(), 'missing', 'emu.json'), /directory .* cannot be used/],
    ['a directory nothing can be written in', () => '/proc/emu.json', /nothing can be written in \/proc/],
    [
      'a file that is not a state',
      () => {
        const f = join(tmp(), 'not-state.json');
        writeFileSync(f, '{"hello":1}');
        return f;
      },
      /not an emulator state file/,
    ],
  ];
  if (process.getuid?.() !== 0) {
    chmodSync(readOnly, 0o500);
    cases.push(['a read-only directory', () => join(readOnly, 'emu.json'), /nothing can be written/]);
  }

  it.each(cases)('%s: exit 2 with a sentence, at once', async (_what, path, sentence) => {
    const started = Date.now();
    const res = await emulatorCommand(['--state', path()]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(sentence);
    expect(res.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it.skipIf(!built)('a FIFO as --state, in the built binary: exit 2, no hang, SIGTERM not needed', async () => {
    const res = spawnSync(process.execPath, [BIN, 'emulator', '--state', fifo], {
      env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(tmp(), 'c') },
      timeout: 10_000,
      encoding: 'utf8',
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/is a FIFO/);
  });
});

describe('a lock keeps a second emulator off the state', () => {
  it('the second is refused while the first runs; the file is free once it stops', async () => {
    const file = join(tmp(), 'emu.json');
    const first = startInProcess(['--json', '--state', file]);
    await waitFor(() => first.io.stdoutText().includes('\n'), { what: 'the first emulator' });
    const second = await emulatorCommand(['--state', file]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`in use by another emulator \\(pid ${process.pid}\\)`));
    first.stop();
    expect(await first.done).toBe(0);
    expect(existsSync(`${file}.lock`)).toBe(false);
    const third = startInProcess(['--json', '--state', file]);
    await waitFor(() => third.io.stdoutText().includes('\n'), { what: 'the third emulator' });
    third.stop();
    expect(await third.done).toBe(0);
  });

  it('a lock left by an emulator that is gone is taken over', async () => {
    const file = join(tmp(), 'emu.json');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(
      `${file}.lock`,
      JSON.stringify({ pid: Number(gone.stdout), host: (await import('node:os')).hostname() }),
    );
    const run = startInProcess(['--json', '--state', file]);
    await waitFor(() => run.io.stdoutText().includes('\n'), { what: 'the emulator' });
    run.stop();
    expect(await run.done).toBe(0);
  });
});

describe.skipIf(!built)('signals save the state (the built binary)', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('%s: saved, exit 0', async (signal) => {
    const file = join(tmp(), 'emu.json');
    const run = await binary(['--state', file]);
    await addSite(run.doc.baseUrl, `Saved on ${signal}`);
    run.child.kill(signal);
    expect(await run.exited).toBe(0);
    expect(savedNames(file)).toContain(`Saved on ${signal}`);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it.each(['SIGHUP', 'SIGTERM', 'SIGINT'] as const)(
    '%s to `emulator -- command`: the command gets it, the state is saved',
    async (signal) => {
      const dir = tmp();
      const file = join(dir, 'emu.json');
      const marker = join(dir, 'marker');
      const script = join(dir, 'child.cjs');
      writeFileSync(
        script,
        `const fs = require('fs');
       for (const s of ['SIGHUP', 'SIGTERM', 'SIGINT']) process.on(s, () => { fs.writeFileSync(${JSON.stringify(marker)}, s); process.exit(0); });
       fs.writeFileSync(${JSON.stringify(marker)}, 'ready');
       setInterval(() => {}, 1000);`,
      );
      const child = spawn(process.execPath, [BIN, 'emulator', '--state', file, '--', process.execPath, script], {
        env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(tmp(), 'c') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      await waitFor(() => existsSync(marker) && readFileSync(marker, 'utf8') === 'ready', {
        what: 'the command to start',
      });
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(readFileSync(marker, 'utf8')).toBe(signal);
      expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('sitebuilder-emulator-state');
    },
  );
});

describe.skipIf(!built)('a failed save', () => {
  it('exits non-zero and says where the state is: the temporary file, written whole', async () => {
    const file = join(tmp(), 'emu.json');
    const run = await binary(['--state', file]);
    await addSite(run.doc.baseUrl, 'Not lost');
    // The file becomes a directory holding something: the rename over it fails.
    mkdirSync(file);
    writeFileSync(join(file, 'x'), 'x');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(1);
    const where = /it is in (\S+)\.$/m.exec(run.stderr())?.[1];
    expect(run.stderr()).toMatch(/^error: The state could not be saved to /m);
    expect(where && savedNames(where)).toContain('Not lost');
  });

  it('exits non-zero and says where the state is: elsewhere, when its directory is gone', async () => {
    const dir = tmp();
    const file = join(dir, 'emu.json');
    const spare = tmp();
    const run = await binary(['--state', file], { TMPDIR: spare });
    await addSite(run.doc.baseUrl, 'Saved elsewhere');
    rmSync(dir, { recursive: true, force: true });
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(1);
    const where = /it was saved to (\S+) instead\.$/m.exec(run.stderr())?.[1];
    expect(where?.startsWith(spare)).toBe(true);
    expect(savedNames(where as string)).toContain('Saved elsewhere');
    expect(statSync(where as string).mode & 0o777).toBe(0o600);
  });
});
