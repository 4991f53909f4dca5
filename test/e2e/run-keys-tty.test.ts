// The keys of a followed run in a real terminal (tmux, the built binary, a shell), at 80 and 40
// columns (src/commands/shared/run/run-keys.ts): Ctrl-C stops following and the run goes on, which the
// printed re-attach command, pasted into the same shell, shows; Esc asks, any other key keeps the
// run going, and y cancels it, which `job watch` after shows too. In a conversation, a cancelled
// run leaves the prompt there. The tests run side by side, each with an emulator of its own.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { knowLatestRun } from '../commands/chat/helpers.js';
import { expectFits } from '../helpers/screen.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const tmp = mkdtempSync(join(tmpdir(), 'sb-keys-'));
const shimDir = join(tmp, 'bin');
mkdirSync(shimDir, { recursive: true });
writeFileSync(join(shimDir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(shimDir, 'sitebuilder'), 0o755);

/** The emulators' and the CLI's clocks run 20 times faster than the wall clock. */
const SPEED = 20;
/** Emulated seconds each run stalls: a minute of wall time, far more than the keys below take. */
const STALL = 60 * SPEED;

const opened: Array<{ kill(): void } | RunningEmulator> = [];
afterAll(async () => {
  for (const o of opened.splice(0)) {
    if ('kill' in o) o.kill();
    else await o.close();
  }
});

/** A shell in a terminal of `cols` columns, its sitebuilder talking to `emu`, on a machine that knows the site's latest run. */
async function shell(emu: RunningEmulator, site: string, cols: number): Promise<TmuxSession> {
  const config = join(mkdtempSync(join(tmp, 'config-')), 'config');
  await knowLatestRun(emu, config, site);
  const t = new TmuxSession(
    ['bash', '--norc', '--noprofile', '-i'],
    {
      PATH: `${shimDir}:${process.env.PATH}`,
      PS1: '$ ',
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CONFIG_DIR: config,
      // The CLI's waits (the 3 s poll floor) keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: String(SPEED),
      TERM: 'xterm-256color',
    },
    { cols, rows: 50, history: 2000 },
  );
  opened.push(t);
  return t;
}

/** The screen with stderr's own wrapping undone: a sentence wrapped to the width continues on lines indented by two. */
const unwrapped = (screen: string) => screen.replace(/\n {2}(?=\S)/g, ' ');

/** The exit code of the command the shell ran last, asked once its prompt is back (keys typed before are the command's). */
async function exitOf(t: TmuxSession, n: number): Promise<number> {
  await t.waitFor((s) => s.trimEnd().endsWith('\n$'), 20_000);
  await t.send(`echo EXIT${n}=$?`, 'Enter');
  const screen = await t.waitFor(new RegExp(`^EXIT${n}=\\d+$`, 'm'), 20_000);
  return Number(new RegExp(`^EXIT${n}=(\\d+)$`, 'm').exec(screen)![1]);
}

const cancels = (emu: RunningEmulator) => emu.control.log({ method: 'cancel_job' }).length;

/** chat, Ctrl-C: the run goes on; its re-attach pasted; Esc, y in job watch; job watch again shows it cancelled. */
async function stopThenCancel(emu: RunningEmulator, site: string, cols: number): Promise<void> {
  const t = await shell(emu, site, cols);
  await t.waitFor(/^\$/m);
  await t.send(`sitebuilder chat ${site} 'Add an about page and a contact page #stall:${STALL}'`, 'Enter');
  await t.waitFor(/The agent stalled/, 20_000);
  await t.send('C-c');
  const stopped = await t.waitFor(/Cancel it with:[\s\S]*^\$/m, 20_000);
  const said = unwrapped(stopped);
  expect(said).toContain('Esc cancels the run (asks first) · Ctrl-C stops following (the run goes on)');
  expect(said).toMatch(/^↗ Stopped following$/m);
  expect(said).toMatch(/Stopped following; the run goes on\. Re-attach with:\s+sitebuilder job watch \S+ \S+/);
  const watch = /(sitebuilder job watch \S+ \S+)/.exec(said)![1];
  expect(said).toContain(`Cancel it with: sitebuilder job cancel ${site} --job ${watch.split(' ').at(-1)}`);
  expect(await exitOf(t, 1)).toBe(130);
  expect(cancels(emu)).toBe(0);
  expectFits(stopped, cols, { commands: [watch] });
  // The re-attach, pasted: the run still goes on (no cancel was sent).
  await t.send(watch, 'Enter');
  await t.waitFor((s) => /Attached to run \S+, (running|stalled)/.test(unwrapped(s)), 20_000);
  // Esc asks; another key keeps it going.
  await t.send('Escape');
  await t.waitFor((s) => unwrapped(s).includes('Cancel this run? y cancels it · any other key keeps it going'));
  await t.send('n');
  await t.waitFor(/Not cancelled; the run goes on\./);
  expect(cancels(emu)).toBe(0);
  // Esc, y: cancelled, and said so once the run says so.
  await t.send('Escape');
  await t.waitFor((s) => (unwrapped(s).match(/Cancel this run\? y cancels it/g) ?? []).length === 2);
  await t.send('y');
  const cancelled = await t.waitFor(/^■ Cancelled/m, 20_000);
  expect(cancels(emu)).toBe(1);
  expect(unwrapped(cancelled)).toContain('Cancel sent; following the run until it stops');
  expect(await exitOf(t, 2)).toBe(130);
  // job watch after shows what was said: cancelled.
  await t.send(watch, 'Enter');
  const after = await t.waitFor((s) => (s.match(/^■ Cancelled/gm) ?? []).length === 2, 20_000);
  expect(unwrapped(after)).toMatch(/Attached to run \S+, cancelled/);
  expect(await exitOf(t, 3)).toBe(1);
  expectFits(after, cols);
}

/** A conversation: Esc, y cancels the run and the prompt comes back; /exit leaves; job watch shows it cancelled. */
async function cancelInConversation(emu: RunningEmulator, site: string, cols: number): Promise<void> {
  const t = await shell(emu, site, cols);
  await t.waitFor(/^\$/m);
  await t.send(`sitebuilder chat ${site}`, 'Enter');
  await t.waitForPrompt(/^\? You ‣/);
  // Esc at the prompt: nothing runs, so nothing is cancelled and the line stays as typed.
  await t.send('Add an about page');
  await t.waitForPrompt(/^\? You ‣ Add an about page/);
  await t.send('Escape');
  await t.waitFor((s) => unwrapped(s).includes('Nothing runs to cancel. /exit or Ctrl-D leaves.'));
  await t.waitForPrompt(/^\? You ‣ Add an about page\s*$/);
  await t.send(` and a contact page #stall:${STALL}`, 'Enter');
  await t.waitFor(/The agent stalled/, 20_000);
  await t.send('Escape');
  await t.waitFor((s) => unwrapped(s).includes('Cancel this run? y cancels it'));
  await t.send('y');
  const back = await t.waitFor(/^■ Cancelled[\s\S]*\? You ‣/m, 20_000);
  expect(cancels(emu)).toBe(1);
  const job = (emu.control.log({ method: 'get_job' }).at(-1)!.args as { jobId: string }).jobId;
  expectFits(back, cols);
  await t.send('/exit', 'Enter');
  expect(await exitOf(t, 1)).toBe(0);
  await t.send(`sitebuilder job watch ${site} ${job}`, 'Enter');
  const after = await t.waitFor((s) => (s.match(/^■ Cancelled/gm) ?? []).length === 2, 20_000);
  expect(unwrapped(after)).toMatch(/Attached to run \S+, cancelled/);
  expect(await exitOf(t, 2)).toBe(1);
}

/** An emulator of the test's own, closed with the rest once all have ended. */
async function emulator(): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0, speed: SPEED });
  opened.push(emu);
  return emu;
}

describe.skipIf(!hasTmux).concurrent('the keys of a followed run in a real terminal', () => {
  for (const [site, cols] of [
    ['site_bakery', 80],
    ['site_portfolio', 40],
  ] as const)
    it(
      `at ${cols} columns: Ctrl-C stops following (the run goes on); Esc asks, y cancels; job watch after agrees`,
      async () => stopThenCancel(await emulator(), site, cols),
      60_000,
    );
  for (const [site, cols] of [
    ['site_docs', 80],
    ['site_bakery', 40],
  ] as const)
    it(
      `at ${cols} columns: in a conversation, Esc, y cancels the run and the prompt comes back`,
      async () => cancelInConversation(await emulator(), site, cols),
      60_000,
    );
});
