// Degenerate terminals and signals, with the built binary in a real pseudo-terminal (`script`)
// whose size is set with stty (docs/reliability.md). A terminal of 0 × 0 or of absurd size
// cannot be redrawn: progress comes as a few appended lines and the run ends as usual. SIGINT and
// SIGTERM end the process in every state: following a run, at a prompt, waiting on a request that
// never answers.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { type ScriptServer, startScriptServer } from '../helpers/script-server.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { knowLatestRun } from '../commands/chat/helpers.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const hasScript = spawnSync('script', ['--version']).status === 0;

let emu: RunningEmulator;
let hanging: ScriptServer;
const running: ChildProcess[] = [];

/** A config dir where this machine knows the latest runs of the sites the tests chat with. */
let knownRuns: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
  // Without it, a history that names no run (the alternate shapes) leaves the latest run unknown,
  // and chat asks first: these tests are about following a run, not about that question.
  knownRuns = join(mkdtempSync(join(tmpdir(), 'sb-term-known-')), 'config');
  for (const site of ['site_bakery', 'site_docs']) await knowLatestRun(emu, knownRuns, site);
  hanging = await startScriptServer();
  hanging.answerFor = () => ({ hang: true });
});
afterAll(async () => {
  for (const c of running) c.kill('SIGKILL');
  await hanging.close();
  await emu.close();
});

interface Terminal {
  output(): string;
  /** The pid of sitebuilder itself (the shell execs it). */
  pid(): Promise<number>;
  exit: Promise<number | null>;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A fresh config dir holding what `knownRuns` holds. */
function copyOf(dir: string): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'sb-term-')), 'config');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Runs sitebuilder in a pseudo-terminal of the given size (`stty rows R cols C`), stdin and both outputs on it. */
function inTerminal(size: { rows: number; cols: number }, args: string[], env: Record<string, string> = {}): Terminal {
  const line = `stty rows ${size.rows} cols ${size.cols}; echo PID=$$; exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', line, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      SHELL: '/bin/sh',
      TERM: 'xterm-256color',
      XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(tmpdir(), 'sb-cache'),
      SITEBUILDER_CONFIG_DIR: copyOf(knownRuns),
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      // The CLI's waits (the 3 s poll floor) keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: '20',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const output = () => out;
  const pid = () => waitFor(() => Number(/PID=(\d+)/.exec(out)?.[1]) || undefined, { what: 'the pid', detail: output });
  return { output, pid, exit };
}

/** Resolves with the exit code, failing when the process is still there after the deadline. */
function ended(t: Terminal, what: string): Promise<number | null> {
  let code: number | null | undefined;
  t.exit.then((c) => {
    code = c;
  });
  return waitFor(() => (code === undefined ? undefined : { code }), {
    what,
    deadlineMs: 15_000,
    detail: t.output,
  }).then((r) => r.code);
}

describe.skipIf(!hasScript)('degenerate terminals', () => {
  it.each([
    { rows: 0, cols: 0 },
    { rows: 50, cols: 65_535 },
  ])('a run followed in a terminal of %j ends, in a few appended lines', async (size) => {
    // --yes: the tests share one emulator, so what waits after another test's run is not seen here.
    const t = inTerminal(size, ['chat', 'site_bakery', 'Add an about page with our story', '--yes']);
    expect(await ended(t, 'the run to end')).toBe(0);
    const out = t.output();
    expect(out).toContain('Done in');
    expect(out).toContain('The agent is working');
    // Appended, never redrawn: no line clearing, and little written.
    expect(out).not.toContain('\u001b[2K');
    expect(out.length).toBeLessThan(4_000);
  });

  it('publish --wait in a terminal of 0 × 0 ends, its progress in a few lines', async () => {
    const t = inTerminal({ rows: 0, cols: 0 }, ['publish', 'site_portfolio']);
    expect(await ended(t, 'the publish to end')).toBe(0);
    expect(t.output()).toMatch(/Publishing site_portfolio\r?\n[\s\S]*Published site_portfolio in/);
    expect(t.output()).not.toContain('\u001b[2K');
    expect(t.output().length).toBeLessThan(2_000);
  });
});

describe.skipIf(!hasScript)('SIGINT and SIGTERM end the process in every state', () => {
  const states: Array<{
    state: string;
    args: string[];
    env?: () => Record<string, string>;
    reached: (t: Terminal) => boolean;
    slow?: boolean;
  }> = [
    {
      state: 'following a run',
      args: ['chat', 'site_docs', 'Add a changelog page with the last three releases', '--yes'],
      reached: (t) => t.output().includes('The agent is working'),
      slow: true,
    },
    {
      state: 'at a prompt',
      args: ['site', 'create', '--workspace', 'ws_demo'],
      reached: (t) => t.output().includes('Describe the site'),
    },
    {
      state: 'waiting on a request that never answers',
      args: ['workspace', 'list'],
      env: () => ({ SITEBUILDER_BASE_URL: hanging.baseUrl }),
      reached: () => hanging.requests.length > 0,
    },
  ];
  // Neither signal cancels a followed run (it goes on: docs/guide.md "Keys during a run"), so
  // each signal follows a run on a site of its own.
  const cases = states.flatMap((s) =>
    (['SIGINT', 'SIGTERM'] as const).map((signal) => ({
      ...s,
      args: signal === 'SIGTERM' ? s.args.map((a) => (a === 'site_docs' ? 'site_bakery' : a)) : s.args,
      signal,
      code: signal === 'SIGINT' ? 130 : 143,
    })),
  );

  it.each(cases)('$signal $state, at 0 × 0', async ({ args, env, reached, slow, signal, code }) => {
    // A run slow enough to still be going when the signal comes.
    if (slow) emu.control.setClock({ speed: 1 });
    hanging.requests.length = 0;
    try {
      const t = inTerminal({ rows: 0, cols: 0 }, args, { ...(slow && { SITEBUILDER_CLOCK_SPEED: '1' }), ...env?.() });
      const pid = await t.pid();
      await waitFor(() => reached(t), { what: 'the state to be reached', deadlineMs: 15_000, detail: t.output });
      process.kill(pid, signal);
      expect(await ended(t, `the process to end after ${signal}`)).toBe(code);
      expect(t.output().length).toBeLessThan(4_000);
    } finally {
      emu.control.setClock({ speed: 20 });
    }
  });
});

/**
 * Every signal leaves the terminal as it found it (io/terminal-restore.ts), in tmux: at each
 * prompt and picker, and while a run is followed (raw mode, a live block), SIGINT, SIGTERM and
 * SIGHUP end the process with 130, 143 and 129, and afterwards `stty -a` says what it said
 * before, the cursor is shown, and the shell's next line starts at the left edge. The cases run
 * side by side, each in a terminal and on a site of its own; a run followed is followed on an
 * emulator of wall pace, so it still goes on when the signal comes.
 */
describe.skipIf(!hasTmux).concurrent('every signal gives the terminal back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-restore-'));
  const sessions: TmuxSession[] = [];
  let wallPace: RunningEmulator;
  beforeAll(async () => {
    wallPace = await startEmulator({ port: 0, speed: 1 });
  });
  afterAll(async () => {
    for (const s of sessions) s.kill();
    await wallPace.close();
  });

  interface State {
    state: string;
    /** The command line, about a site of its own (made for the case: no run or question of another case waits there). */
    args: (site: string) => string[];
    /** Keys and screens on the way to the state. */
    reach: (t: TmuxSession) => Promise<unknown>;
    env?: Record<string, string>;
    slow?: boolean;
  }
  const states: State[] = [
    {
      state: 'the question picker',
      args: (site) => ['chat', site],
      reach: async (t) => {
        await t.waitForPrompt(/You/);
        await t.send('-l', 'make it nice');
        await t.send('Enter');
        return t.waitFor(/What kind of site should this be\? …/, 20_000);
      },
    },
    {
      state: 'the backup picker',
      args: () => ['backup', 'restore', 'site_bakery'],
      reach: (t) => t.waitFor(/Which backup\?/),
    },
    {
      state: 'a text prompt',
      args: () => ['site', 'create', '--workspace', 'ws_demo'],
      reach: (t) => t.waitFor(/Describe the site/),
    },
    {
      state: 'the hidden token prompt',
      args: () => ['auth', 'login'],
      env: { SITEBUILDER_TOKEN: '' },
      reach: (t) => t.waitFor(/Paste your token/),
    },
    {
      state: 'a run followed',
      args: (site) => ['chat', site, 'Add a changelog page with the last three releases'],
      reach: (t) => t.waitFor(/The agent is working/, 20_000),
      slow: true,
    },
  ];
  const cases = states.flatMap((s) =>
    (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => ({
      ...s,
      signal,
      code: { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal],
    })),
  );

  it.each(cases)(
    '$signal at $state',
    async ({ state, args, reach, env, slow, signal, code }) => {
      const on = slow ? wallPace : emu;
      const name = `${signal}-${state.replace(/\W+/g, '-')}`;
      const site = on.control.addSites('ws_demo', { name: `Signals ${name}` })[0]._id;
      const pidFile = join(dir, `${name}.pid`);
      // The modes before and after, read by the shell around the command (bash's own line
      // editing would put them back itself before its next prompt, hiding what was left).
      const script = join(dir, `${name}.sh`);
      writeFileSync(
        script,
        [
          `stty -a > '${dir}/${name}.before'`,
          `sh -c 'echo $$ > "$0"; exec "$@"' '${pidFile}' ${[process.execPath, BIN, ...args(site)].map(quote).join(' ')}`,
          'echo EXIT=$?',
          `stty -a > '${dir}/${name}.after'`,
          `cmp -s '${dir}/${name}.before' '${dir}/${name}.after' && echo MODES=SAME || echo MODES=CHANGED`,
        ].join('\n'),
      );
      const t = new TmuxSession(
        ['sh', script],
        {
          TERM: 'xterm-256color',
          SITEBUILDER_CONFIG_DIR: copyOf(knownRuns),
          SITEBUILDER_BASE_URL: on.baseUrl,
          SITEBUILDER_TOKEN: DEMO_TOKENS.full,
          SITEBUILDER_CLOCK_SPEED: slow ? '1' : '20',
          ...env,
        },
        { cols: 80, rows: 24 },
      );
      sessions.push(t);
      await reach(t);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      process.kill(pid, signal);
      // A conversation may take the first Ctrl-C for the run; a person presses it again.
      const ended = await t.waitFor(/EXIT=\d+/, 5_000).catch(() => undefined);
      if (!ended && signal === 'SIGINT') process.kill(pid, signal);
      const screen = await t.waitFor(/MODES=\w+/, 10_000);
      expect(screen).toMatch(new RegExp(`^EXIT=${code}$`, 'm'));
      expect(screen).toMatch(/^MODES=SAME$/m);
      expect(await t.cursorShown()).toBe(true);
    },
    40_000,
  );
});
