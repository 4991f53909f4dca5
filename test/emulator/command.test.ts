// Rules 7 and 9: `sitebuilder emulator` (in-process through main(), and the built binary for
// signals) and the demo behind `npm start`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { FakeClock } from '../../src/clock.js';
import { createTestIO } from '../../src/io/io.js';
import { waitFor } from '../helpers/wait-for.js';
import { send } from './helpers.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'sb-emu-cmd-'));

const untilLine = (read: () => string): Promise<string> =>
  waitFor(() => read().includes('\n') && read().split('\n')[0], { what: 'a first line on stdout' });

function startInProcess(argv: string[]) {
  const io = createTestIO();
  io.stdinStream.end();
  const controller = new AbortController();
  const env = { SITEBUILDER_CONFIG_DIR: join(tmp(), 'config') };
  const done = main(argv, { io, env, clock: new FakeClock(), signal: controller.signal });
  return { io, stop: () => controller.abort(), done };
}

describe('sitebuilder emulator', () => {
  it('--json prints exactly one line with the base URL and the tokens, full-scope first; Ctrl-C stops it and saves --state', async () => {
    const stateFile = join(tmp(), 'state.json');
    const run = startInProcess(['emulator', '--json', '--state', stateFile]);
    const line = await untilLine(() => run.io.stdoutText());
    const doc = JSON.parse(line);
    expect(Object.keys(doc)).toEqual(['baseUrl', 'shapes', 'tokens']);
    expect(doc.shapes).toBe('default');
    expect(doc.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.keys(doc.tokens[0])).toEqual(['name', 'token', 'scopes', 'workspaces']);
    expect(doc.tokens[0].name).toBe('demo-full');
    expect(doc.tokens[0].scopes).toHaveLength(10);
    expect(doc.tokens.some((t: { workspaces: string[] }) => t.workspaces.length === 1)).toBe(true);
    const created = await send(doc.baseUrl, '/v1/create_site', {
      token: doc.tokens[0].token,
      body: { workspaceId: 'ws_demo', prompt: 'Kept in the state file' },
    });
    expect(created.status).toBe(200);
    run.stop();
    expect(await run.done).toBe(0);
    expect(run.io.stdoutText().trimEnd().split('\n')).toHaveLength(1);
    expect(run.io.stderrText()).toBe('');
    const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(saved.core.sites.some((s: { name: string }) => s.name === 'Kept in the state file')).toBe(true);

    // Loaded again at the next start.
    const again = startInProcess(['emulator', '--json', '--state', stateFile]);
    const second = JSON.parse(await untilLine(() => again.io.stdoutText()));
    const sites = await send(second.baseUrl, '/v1/list_sites', {
      token: second.tokens[0].token,
      body: { workspaceId: 'ws_demo' },
    });
    expect(sites.body.data.map((s: { name: string }) => s.name)).toContain('Kept in the state file');
    again.stop();
    expect(await again.done).toBe(0);
  });

  it('without --json prints the base URL and the demo tokens, hints on stderr', async () => {
    const run = startInProcess(['emulator', '--port', '0']);
    await untilLine(() => run.io.stdoutText());
    await waitFor(() => run.io.stderrText().includes('Ctrl-C stops it'), { what: 'the last line of the hints' });
    run.stop();
    expect(await run.done).toBe(0);
    const out = run.io.stdoutText();
    expect(out).toMatch(/^Emulator listening on http:\/\/127\.0\.0\.1:\d+/);
    for (const name of ['demo-full', 'demo-narrow', 'demo-readonly', 'demo-expired', 'demo-revoked'])
      expect(out).toContain(name);
    expect(out).toMatch(/demo-revoked .*revoked/);
    // The token column and the column after it start at the same place on every row.
    const rows = out.split('\n').filter((l) => l.startsWith('  demo-'));
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((l) => l.indexOf('sbt_')))).toHaveProperty('size', 1);
    expect(new Set(rows.map((l) => /^ +\S+ +\S+ +/.exec(l)![0].length))).toHaveProperty('size', 1);
    expect(run.io.stderrText()).toMatch(/SITEBUILDER_TOKEN=sbt_demo_full/);
  });

  it('-- command args… runs the command with SITEBUILDER_BASE_URL and SITEBUILDER_TOKEN set and exits with its code', async () => {
    const script = `
      const base = process.env.SITEBUILDER_BASE_URL;
      const token = process.env.SITEBUILDER_TOKEN;
      fetch(base + '/v1/list_workspaces', { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body: '{}' })
        .then((r) => r.json())
        .then((b) => process.exit(b.count === 4 && base.startsWith('http://127.0.0.1:') ? 7 : 1), () => process.exit(2));
    `;
    const io = createTestIO();
    const code = await main(['emulator', '--', process.execPath, '-e', script], {
      io,
      env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(tmp(), 'c') },
      signal: new AbortController().signal,
    });
    expect(code).toBe(7);
    expect(io.stdoutText()).toBe('');
  });

  it('--shapes alternate (or SITEBUILDER_EMULATOR_SHAPES) answers in the alternate shapes and tells the command', async () => {
    const run = startInProcess(['emulator', '--json', '--shapes', 'alternate']);
    const doc = JSON.parse(await untilLine(() => run.io.stdoutText()));
    expect(doc.shapes).toBe('alternate');
    const answer = await send(doc.baseUrl, '/v1/list_workspaces', { token: doc.tokens[0].token, body: {} });
    expect(answer.body.requestId).toBe(answer.headers['x-request-id']);
    expect(answer.body.data[0]).toHaveProperty('title');
    run.stop();
    expect(await run.done).toBe(0);
    // The variable is the default of --shapes, and the command run around the emulator gets it.
    const script = `
      fetch(process.env.SITEBUILDER_BASE_URL + '/_emulator/shapes').then((r) => r.json())
        .then((b) => process.exit(b.data.shapes === 'alternate' && process.env.SITEBUILDER_EMULATOR_SHAPES === 'alternate' ? 7 : 1), () => process.exit(2));
    `;
    const io = createTestIO();
    const code = await main(['emulator', '--', process.execPath, '-e', script], {
      io,
      env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(tmp(), 'c'), SITEBUILDER_EMULATOR_SHAPES: 'alternate' },
      signal: new AbortController().signal,
    });
    expect(code).toBe(7);
    for (const [argv, env] of [
      [['emulator', '--shapes', 'odd'], {}],
      [['emulator'], { SITEBUILDER_EMULATOR_SHAPES: 'odd' }],
    ] as const) {
      const bad = createTestIO();
      expect(await main([...argv], { io: bad, env: { ...env }, signal: new AbortController().signal })).toBe(2);
      expect(bad.stderrText()).toMatch(/default or alternate|default, alternate/);
    }
  });

  it('a command that cannot be found is a usage error', async () => {
    const io = createTestIO();
    const code = await main(['emulator', '--', 'sitebuilder-no-such-command-xyz'], {
      io,
      env: { PATH: '/nonexistent' },
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(io.stderrText()).toMatch(/Command not found/);
  });

  it('warns when asked to bind beyond loopback; refuses a bad port or speed', async () => {
    // 192.0.2.1 (TEST-NET) is not a local address: the bind fails without touching a network.
    const io = createTestIO();
    const code = await main(['emulator', '--host', '192.0.2.1'], { io, env: {}, signal: new AbortController().signal });
    expect(io.stderrText()).toMatch(/warning: binding to 192\.0\.2\.1 exposes/);
    expect(code).toBe(2);
    for (const argv of [
      ['emulator', '--port', '70000'],
      ['emulator', '--speed', '0'],
      ['emulator', '--speed', 'fast'],
    ]) {
      const bad = createTestIO();
      expect(await main(argv, { io: bad, env: {}, signal: new AbortController().signal })).toBe(2);
    }
  });

  const built = existsSync(new URL('../../dist/cli.js', import.meta.url));
  it.skipIf(!built)('the built binary stops cleanly on SIGTERM and on SIGINT, saving --state', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const stateFile = join(tmp(), 'state.json');
      const child = spawn(process.execPath, ['bin/sitebuilder.js', 'emulator', '--json', '--state', stateFile], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, SITEBUILDER_CONFIG_DIR: join(tmp(), 'c') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      const line = await untilLine(() => out);
      expect(JSON.parse(line).baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).format).toBe('sitebuilder-emulator-state');
    }
  });
});

describe('npm start (the demo)', () => {
  it('runs an in-process emulator and a short tour through main()', async () => {
    const io = createTestIO();
    const code = await main(['demo'], {
      io,
      // The demo's emulator and the CLI's waits both at 20 times the wall clock's pace.
      env: { SITEBUILDER_CONFIG_DIR: join(tmp(), 'c'), SITEBUILDER_CLOCK_SPEED: '20' },
      signal: new AbortController().signal,
    });
    expect(code).toBe(0);
    expect(io.stderrText()).toMatch(/\$ sitebuilder workspace list/);
    expect(io.stdoutText()).toContain('ws_demo');
    expect(io.stdoutText()).toContain('Sunrise Bakery');
  });

  it('is hidden from the help', async () => {
    const io = createTestIO();
    await main(['--help'], { io, env: {}, signal: new AbortController().signal });
    expect(io.stdoutText()).toMatch(/emulator/);
    expect(io.stdoutText()).not.toMatch(/\bdemo\b/);
  });
});

describe('emulator --host on a non-loopback address', () => {
  it('warns, and its control API needs the secret it prints (the tests connect over 127.0.0.1 only)', async () => {
    const run = startInProcess(['emulator', '--json', '--host', '0.0.0.0']);
    const doc = JSON.parse(await untilLine(() => run.io.stdoutText()));
    try {
      expect(doc.controlSecret).toMatch(/^[\w-]{32}$/);
      expect(run.io.stderrText()).toMatch(/^warning: binding to 0\.0\.0\.0 exposes the emulator/);
      // The base URL printed is one a client can use as it is: loopback, with the port.
      expect(doc.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const base = doc.baseUrl;
      expect((await send(base, '/_emulator/tokens', { token: null })).status).toBe(401);
      const reset = await send(base, '/_emulator/reset', { body: { seed: false }, token: null });
      expect(reset.status).toBe(401);
      const ok = await send(base, '/_emulator/tokens', {
        token: null,
        headers: { 'x-emulator-secret': doc.controlSecret },
      });
      expect(ok.status).toBe(200);
      const sites = await send(base, '/v1/list_sites', {
        token: doc.tokens[0].token,
        body: { workspaceId: 'ws_demo' },
      });
      expect(sites.body.data.length).toBeGreaterThan(0);
    } finally {
      run.stop();
    }
    expect(await run.done).toBe(0);
  });

  it('prints a base URL the CLI can use as printed, and the addresses other machines use', async () => {
    const run = startInProcess(['emulator', '--host', '0.0.0.0']);
    const first = await untilLine(() => run.io.stdoutText());
    try {
      const printed = /^Emulator listening on (\S+)$/.exec(first)?.[1];
      expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = new URL(printed as string).port;
      await waitFor(() => /Other machines|No address/.test(run.io.stderrText()), { what: 'the other addresses' });
      // A machine with loopback only says so.
      const elsewhere = /Other machines reach it at (.+?); on this machine/.exec(run.io.stderrText())?.[1];
      if (!elsewhere) expect(run.io.stderrText()).toMatch(/No address of this machine besides loopback/);
      for (const url of elsewhere?.split(', ') ?? []) {
        expect(url).toMatch(new RegExp(`^http://(\\d+\\.\\d+\\.\\d+\\.\\d+|\\[[0-9a-f:%.\\w]+\\]):${port}$`));
        expect(url).not.toMatch(/0\.0\.0\.0|127\.0\.0\.1|\[::1?\]/);
      }
      // Pasted into the CLI, the printed address works (a loopback http:// address takes the token).
      const io = createTestIO();
      const tokens = /^\s+\S+\s+(sbt_\S+)\s+all scopes/m.exec(run.io.stdoutText())?.[1];
      expect(tokens).toBeDefined();
      const code = await main(['site', 'list', '--base-url', printed as string, '--token', tokens as string], {
        io,
        env: { SITEBUILDER_CONFIG_DIR: join(tmp(), 'config') },
        clock: new FakeClock(),
      });
      expect(io.stderrText()).toBe('');
      expect(code).toBe(0);
      expect(io.stdoutText()).toMatch(/site_bakery/);
    } finally {
      run.stop();
    }
    expect(await run.done).toBe(0);
  });

  it('takes the secret from SITEBUILDER_EMULATOR_SECRET, and refuses a short one', async () => {
    const io = createTestIO();
    io.stdinStream.end();
    const env = { SITEBUILDER_CONFIG_DIR: join(tmp(), 'config'), SITEBUILDER_EMULATOR_SECRET: 'short' };
    const code = await main(['emulator', '--host', '0.0.0.0'], { io, env, clock: new FakeClock() });
    expect(code).toBe(2);
    expect(io.stderrText()).toContain('SITEBUILDER_EMULATOR_SECRET must be 16 to 256 visible characters');
  });
});
