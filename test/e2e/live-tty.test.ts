// A followed run in a real terminal (tmux, the built binary) at 80 and 40 columns: the live
// block (the task list updated in place above the spinner) with no stale copy in the scrollback;
// and the reproduction of a lost service: the emulator stopped a few seconds into
// `chat … --json` (exit 8, one end line that detaches, the re-attach command), or stopped and
// started again on its port (the run goes on to its real end). The tests run side by side, each
// with an emulator of its own whose clock it moves: at wall pace until the run is seen stalled
// (so a loaded machine cannot see the stall end first), then past the stall and 20 times faster.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import { knowLatestRun } from '../commands/chat/helpers.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const sessions: TmuxSession[] = [];
const emulator = ownEmulators();

afterAll(() => {
  for (const s of sessions) s.kill();
});

/** `sitebuilder chat SITE MESSAGE …` in a terminal of `cols` columns, on a machine that knows the site's latest run. */
async function chatIn(
  emu: RunningEmulator,
  site: string,
  cols: number,
  args: string[],
  speed: number,
): Promise<TmuxSession> {
  const config = join(mkdtempSync(join(tmpdir(), 'sitebuilder-live-')), 'config');
  await knowLatestRun(emu, config, site);
  const s = new TmuxSession(
    [process.execPath, BIN, 'chat', site, ...args],
    {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CONFIG_DIR: config,
      // The CLI's waits (poll floor, reconnect) keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: String(speed),
    },
    { cols, rows: 30 },
  );
  sessions.push(s);
  return s;
}

/** The CLI's clock, and the emulators' once the run was seen stalled. */
const SPEED = 20;

const count = (screen: string, re: RegExp) => screen.split('\n').filter((l) => re.test(l)).length;
const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

/** The live block at the bottom, the task list moved on in place: one block, one spinner, in the whole scrollback. */
async function liveBlock(cols: number, site: string): Promise<void> {
  const emu = await emulator({ port: 0, speed: 1 });
  const t = await chatIn(emu, site, cols, ['Please add many pages to the site #long #stall:40'], SPEED);
  // Stalled after its opening words: the spinner says so, on one row, redrawn in place.
  const first = await t.waitFor(/The agent stalled/, 20_000);
  const shown = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';
  // Some redraws later (the elapsed time moved on): still one row, in place.
  const stalled = await t.waitFor((s) => /stalled/.test(shown(s)) && shown(s) !== shown(first), 20_000);
  expect(count(stalled, SPINNER)).toBe(1);
  expect(shown(stalled)).toMatch(/^. The agent stalled; waiting/);
  expect(count(stalled, /stalled/)).toBe(1);
  // The rest of the stall at once (it began less than a second before it was seen), and the long
  // run after it at 20 times its pace: minutes of it left for the keys below.
  emu.control.setClock({ speed: SPEED, advanceMs: 40_000 });
  // A task done, and the next one going on (a poll may bring several at once).
  const mid = await t.waitFor((s) => /^Tasks [1-9]\d*\/\d+\n( {2}✓ .*\n)+ {2}▸ /m.test(s), 20_000);
  const rows = mid.trimEnd().split('\n');
  expect(rows.at(-1)).toMatch(SPINNER);
  expect(rows.at(-1)).toMatch(/The agent is working (\d+m)?\d+s/);
  expect(count(mid, /^Tasks \d+\/\d+/)).toBe(1);
  expect(count(mid, SPINNER)).toBe(1);
  for (const row of rows.slice(rows.findIndex((r) => r.startsWith('Tasks')))) expect(row.length).toBeLessThan(cols);
  // The text, steps and file changes above it, each once.
  expect(count(mid, /^~ index\.html$/)).toBe(1);
  // Esc asks (on the spinner, which stays one row), y cancels: the block goes, the task list as it
  // ended stays once, then the end line.
  await t.send('Escape');
  const asked = await t.waitFor((s) => /Cancel this run\? \(y\/N\)/.test(shown(s)), 20_000);
  expect(count(asked, SPINNER)).toBe(1);
  await t.send('y');
  const end = await t.waitFor(/EXIT=130/, 20_000);
  expect(count(end, SPINNER)).toBe(0);
  expect(count(end, /^Tasks/)).toBe(1);
  expect(end).toMatch(/^Tasks\n {2}✓ Update the home page\n/m);
  // At 40 columns the end line wraps at word boundaries: read as one sentence.
  expect(unwrapped(end)).toMatch(/^■ Cancelled in (\d+m)?\d+s · \d+ credits?; what the agent already wrote stays$/m);
}

/**
 * The emulator stopped while the run is stalled (a minute at wall pace: a loaded machine cannot
 * see the run end before the stop); with `back`, started again on its port, where the run goes on
 * from the saved clock: the rest of the stall (passed at once), then the files.
 */
async function lostService(cols: number, site: string, back: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-live-state-'));
  let emu = await emulator({ port: 0, speed: 1 });
  const port = Number(new URL(emu.baseUrl).port);
  const t = await chatIn(
    emu,
    site,
    cols,
    ['Add an about page and a contact page #stall:60', ...(back ? [] : ['--json', '--reconnect-for', '3s'])],
    SPEED,
  );
  await t.waitFor(back ? /The agent stalled/ : /"state":"stalled"/, 20_000);
  await emu.saveState(join(dir, 'state.json'));
  await emu.close();
  if (!back) {
    const screen = await t.waitFor(/EXIT=\d+/, 30_000);
    expect(screen).toMatch(/EXIT=8/);
    expect(unwrapped(screen).match(/Connection lost \(connection refused\); retrying for up to 3 s\./g)).toHaveLength(
      1,
    );
    const end = screen
      .split('\n')
      .filter((l) => l.startsWith('{"type":"end"'))
      .map((l) => JSON.parse(l));
    expect(end).toHaveLength(1);
    expect(end[0]).toMatchObject({
      outcome: 'detached',
      reason: 'connection_lost',
      exitCode: 8,
      reattach: expect.stringMatching(new RegExp(`^sitebuilder job watch ${site} \\S+$`)),
    });
    return;
  }
  await t.waitFor(
    (s) => /Connection lost \(connection refused\); retrying for up to 5 min\./.test(unwrapped(s)),
    20_000,
  );
  emu = await emulator({ port, stateFile: join(dir, 'state.json'), speed: SPEED });
  emu.control.setClock({ advanceMs: 60_000 });
  const screen = await t.waitFor(/EXIT=\d+/, 30_000);
  expect(screen).toMatch(/EXIT=0/);
  expect(screen.match(/Connection lost/g)).toHaveLength(1);
  expect(unwrapped(screen).match(/Connection back after \d+ (s|min); going on\./g)).toHaveLength(1);
  expect(count(screen, /^\+ about\.html$/)).toBe(1);
  expect(count(screen, SPINNER)).toBe(0);
  expect(screen).toMatch(/^✓ Done in (\d+m)?\d+s · \d+ credits$/m);
}

/** The screen with stderr's own wrapping undone: a sentence wrapped to the width continues on lines indented by two. */
const unwrapped = (screen: string) => screen.replace(/\n {2}(?=\S)/g, ' ');

describe.skipIf(!hasTmux).concurrent('a followed run in a real terminal', () => {
  for (const cols of [80, 40]) {
    it(
      `at ${cols} columns: the live block in place, one spinner, the task list moved on; Esc, y cancels`,
      () => liveBlock(cols, cols === 80 ? 'site_bakery' : 'site_portfolio'),
      60_000,
    );
    it(
      `at ${cols} columns: the service lost while the run stalls: exit 8, one end line that detaches`,
      () => lostService(cols, 'site_docs', false),
      60_000,
    );
  }
  it(
    'at 40 columns: the service lost, then back on its port: the run goes on to its real end',
    () => lostService(40, 'site_bakery', true),
    60_000,
  );
});
