// A chat to many sites in a real terminal (tmux) at 80 and 40 columns, with the built binary
// against an emulator on port 0 running 20 times faster than the wall clock: more than five
// sites are confirmed first (how many, and that each run costs credits), nothing is sent before
// the answer, No sends nothing (exit 130), and Yes shows a row per site as it ends, a question
// with the commands that answer it kept whole, and the summary. And a batch whose stdout is piped
// to a program that prints to the same terminal (`| tee`): the progress on stderr is appended,
// never redrawn, so every tab-separated row is on the screen once and no live row is left.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { ID } from '../helpers/shapes.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const MESSAGE = 'Update the footer year to 2027';
let emu: RunningEmulator;
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await emu.close();
});

function start(args: string[], cols: number, argv = [process.execPath, BIN, ...args]): TmuxSession {
  const session = new TmuxSession(
    argv,
    {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      // The CLI's waits (the poll floor) keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: '20',
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-fleet-tty-')), 'config'),
    },
    { cols, rows: 30 },
  );
  sessions.push(session);
  return session;
}

const oneLine = (screen: string) => screen.replace(/\s+/g, ' ');
const sentTo = (sites: string[]) =>
  emu.control
    .log({ method: 'send_message' })
    .filter((e) => sites.includes((e.args as { projectId?: string } | undefined)?.projectId ?? ''));

/** Answers the confirmation: the key, then Enter unless the key alone answered it. */
async function answer(t: TmuxSession, key: 'y' | 'n'): Promise<void> {
  await t.send(key);
  const screen = await t.waitFor(/^✔ Send it to|^\? Send it to \d+ sites\? \(y\/N\) [yn]\s*$/m);
  if (/^✔ Send it to/m.test(screen)) return;
  await t.send('Enter');
}

describe.skipIf(!hasTmux).concurrent('chat to many sites in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`asks before sending to six sites, then shows a row per site and the summary (${cols} columns)`, async () => {
      const ws = `ws_tty_${cols}`;
      emu.control.createWorkspace({ _id: ws, name: ws, credits: 100_000 });
      const sites = emu.control.addSites(ws, { count: 6, outcomes: { question: 1 } }).map((s) => s._id);
      const asking = sites.find((s) => emu.emulator.site(s)?.outcome === 'question')!;
      const t = start(['chat', '--workspace', ws, '--all-sites', MESSAGE], cols);
      const asked = await t.waitForPrompt(/Send it to 6 sites\?/);
      expect(oneLine(asked)).toContain("This message goes to 6 sites, and each site's run costs credits.");
      expect(sentTo(sites)).toHaveLength(0);
      await answer(t, 'y');
      const done = await t.waitFor(/EXIT=\d+/, 20_000);
      expect(done).toContain('EXIT=10');
      expect(sentTo(sites)).toHaveLength(6);
      for (const site of sites.filter((s) => s !== asking))
        expect(done).toMatch(
          new RegExp(`^✓ ${site} +succeeded(?: +|\n +)(?:\\d+m)?\\d+s(?: +|\n +)${ID('job')}$`, 'm'),
        );
      // Where a row is wider than the terminal, its run goes on a line of its own, and so does the
      // elapsed time where even the unpadded row is wider (a 24-character id at 40 columns).
      const job = new RegExp(`^\\? ${asking} +question(?: +|\n +)(?:\\d+m)?\\d+s(?: +|\n +)(${ID('job')})$`, 'm').exec(
        done,
      )?.[1];
      expect(job).toBeDefined();
      // The command that answers, whole on its own line whatever the width: indented under its
      // row, or at the left edge where only that keeps it within the terminal.
      const reply = new RegExp(`^ *sitebuilder chat ${asking} --answer '…' --job ${job}$`, 'm').exec(done)?.[0] ?? '';
      expect(reply).not.toBe('');
      if (reply.trimStart().length <= cols) expect(reply.length).toBeLessThanOrEqual(cols);
      else expect(reply).toBe(reply.trimStart());
      expect(oneLine(done)).toMatch(
        /6 sites in (\d+m)?\d+s: (\d+ \w+(, )?)+; \d+ calls, no rate limit met\. Exit 10\./,
      );
      // Nothing wider than the terminal but the commands, kept whole.
      for (const line of done.split('\n').filter((l) => !l.includes('sitebuilder chat')))
        expect(line.length, line).toBeLessThanOrEqual(cols);
    });
  }

  it('sends nothing when the answer is no (exit 130)', async () => {
    emu.control.createWorkspace({ _id: 'ws_tty_no', name: 'ws_tty_no', credits: 100_000 });
    const sites = emu.control.addSites('ws_tty_no', { count: 7 }).map((s) => s._id);
    const t = start(['chat', '--workspace', 'ws_tty_no', '--all-sites', MESSAGE], 40);
    await t.waitForPrompt(/Send it to 7 sites\?/);
    await answer(t, 'n');
    const done = await t.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=130');
    expect(done).toContain('Nothing was sent.');
    expect(sentTo(sites)).toHaveLength(0);
  });
});

describe.skipIf(!hasTmux).concurrent('a batch piped to a program that prints to the same terminal', () => {
  for (const cols of [80, 40]) {
    it(`every tab-separated row is on the screen once, and no live row is left (${cols} columns)`, async () => {
      const ws = `ws_tee_${cols}`;
      emu.control.createWorkspace({ _id: ws, name: ws, credits: 100_000 });
      const sites = emu.control.addSites(ws, { count: 5, outcomes: { failure: 1 } }).map((s) => s._id);
      const file = join(mkdtempSync(join(tmpdir(), 'sb-fleet-tee-')), 'published.tsv');
      // stdout is a pipe into tee, which writes the rows to the terminal stderr is drawn on.
      const t = start([], cols, [
        'bash',
        '-c',
        'set -o pipefail; f=$1; shift; "$@" | tee "$f"',
        'bash',
        file,
        process.execPath,
        BIN,
        'publish',
        '--workspace',
        ws,
        '--all-sites',
        '--concurrency',
        '2',
      ]);
      const done = await t.waitFor(/EXIT=\d+/, 20_000);
      expect(done).toContain('EXIT=1');
      const tsv = readFileSync(file, 'utf8').trim().split('\n');
      expect(tsv).toHaveLength(5);
      const lines = done.split('\n');
      for (const site of sites) {
        // The row as tee shows it: the tabs become spaces on the screen.
        const row = new RegExp(`^${site}\\s+(live\\s+\\S+\\s+0|failed\\s+1)\\s*$`);
        expect(
          lines.filter((l) => row.test(l)),
          done,
        ).toHaveLength(1);
        // No row of the live block (a site under way: indented, its state, elapsed) is left behind.
        const underWay = new RegExp(`^  ${site} +[\\w-]+ +\\d+(m\\d+)?s$`);
        expect(
          lines.filter((l) => underWay.test(l)),
          done,
        ).toEqual([]);
        // Its progress line on stderr, appended once as it ended.
        expect(
          lines.filter((l) => new RegExp(`^[✓✗] ${site} `).test(l)),
          done,
        ).toHaveLength(1);
      }
      expect(
        lines.filter((l) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Publishing/.test(l)),
        done,
      ).toEqual([]);
      expect(oneLine(done)).toMatch(/5 sites in (\d+m)?\d+s: .*\. Exit 1\./);
    });
  }
});
