// The agent's Markdown in a real terminal (tmux, the built binary) at 80 and 40 columns: a plan
// streamed in odd pieces (with its table and its code block) reads with no raw marker and
// nothing past the edge, and shows exactly as the same plan printed at once when a conversation
// opens on it; the build after it ends with a long link, whole on its row. The widths run side by
// side against one emulator, 20 times faster than the wall clock: the CLI, at the same pace, still
// reads the plan in several polls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { knowLatestRun } from '../commands/chat/helpers.js';
import { expectFits } from '../helpers/screen.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const SPEED = 20;
const sessions: TmuxSession[] = [];
let emu: RunningEmulator | undefined;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: SPEED });
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await emu?.close();
});

function session(args: string[], env: Record<string, string>, cols: number): TmuxSession {
  const s = new TmuxSession([process.execPath, BIN, ...args], env, { cols, rows: 50, history: 3000 });
  sessions.push(s);
  return s;
}

/** The plan's rows on a screen: from its heading to its closing sentence (wrapped as it may be). */
function planRows(screen: string): string[] {
  const lines = screen.split('\n');
  const from = lines.findIndex((l) => /^Here is (my|the revised) plan$/.test(l));
  const to = lines.findIndex((l, i) => i > from && /^Nothing was changed yet/.test(l));
  let end = to + 1;
  while (end < lines.length && lines[end] !== '' && !/^(The plan above|\? |✓)/.test(lines[end] as string)) end++;
  expect(from, screen).toBeGreaterThanOrEqual(0);
  expect(to, screen).toBeGreaterThan(from);
  return lines.slice(from, end).map((l) => l.trimEnd());
}

/** No Markdown marker on the screen: no `**`, no leading `#`, no fence, no table row of pipes. */
function expectNoMarkers(rows: string[]): void {
  for (const r of rows) expect(r).not.toMatch(/\*\*|^\s*#{1,6} |```|^\s*\|.*\|\s*$/);
}

async function planThenBuild(e: RunningEmulator, site: string, cols: number): Promise<void> {
  const config = join(mkdtempSync(join(tmpdir(), 'sitebuilder-md-')), 'config');
  await knowLatestRun(e, config, site);
  const env = {
    SITEBUILDER_BASE_URL: e.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    SITEBUILDER_CONFIG_DIR: config,
    SITEBUILDER_CLOCK_SPEED: String(SPEED),
  };
  // The plan, streamed: its table, its code block (the new colour, in CSS), rendered as it comes.
  const planned = session(['chat', site, '--plan', 'Make it blue, and add a team page and a gallery page'], env, cols);
  const asked = await planned.waitForPrompt(/Build this plan\?/, 30_000);
  const streamed = planRows(asked);
  expectNoMarkers(streamed);
  expectFits(streamed.join('\n'), cols);
  const text = streamed.join('\n');
  expect(text).toMatch(/^File {2,}Change/m);
  expect(text).toMatch(/^│ {3}--accent: #2e86de;$/m);
  // At 40 columns a numbered step that wraps goes on under its text.
  expect(streamed.some((r) => /^ {3}\S/.test(r))).toBe(true);
  // Decided later: the plan waits (exit 11).
  await planned.send('Escape');
  await planned.waitFor(/EXIT=11/, 20_000);

  // A conversation opened on the plan prints it at once: the same rows as streamed.
  const chat = session(['chat', site], env, cols);
  const waiting = await chat.waitForPrompt(/Build this plan\?/, 30_000);
  expect(planRows(waiting)).toEqual(streamed);
  await chat.send('Enter');
  const built = await chat.waitFor((s) => /^✓ Done in/m.test(s) && /^\? You/m.test(s), 40_000);
  // The build's closing note: its long link's address whole on the screen, on a row of its own
  // where it does not fit beside the words.
  const after = built.slice(built.lastIndexOf('Building the approved plan.'));
  expectNoMarkers(after.split('\n'));
  expectFits(after, cols);
  const address = 'https://developer.mozilla.org/en-US/docs/Web/HTML/Reference/Elements/nav';
  expect(after.replace(/\n/g, ' ')).toContain(address);
  if (cols < address.length) expect(after).toMatch(/^\(https:\/\/developer\.mozilla\.org\S+\)?;?$/m);
  await chat.send('/exit', 'Enter');
  await chat.waitFor(/EXIT=0/, 20_000);
}

describe.skipIf(!hasTmux).concurrent('the agent’s Markdown in a real terminal', () => {
  for (const [site, cols] of [
    ['site_bakery', 80],
    ['site_portfolio', 40],
  ] as const)
    it(
      `at ${cols} columns: a streamed plan with a table and a code block, as printed at once; a long link`,
      () => planThenBuild(emu!, site, cols),
      60_000,
    );
});
