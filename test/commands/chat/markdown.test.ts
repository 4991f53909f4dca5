// The agent's Markdown through the commands (docs/real-service.md "The agent's Markdown"): a plan
// followed on a terminal shows rendered, with --no-markdown or SITEBUILDER_NO_MARKDOWN as it came;
// piped and --json keep the raw text; message list on a terminal shows the history without
// markers, piped as it came.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { tempConfigDir } from '../../helpers/run.js';
import { ScriptedPrompter } from '../../helpers/scripted-prompter.js';
import { chatEnv, knowLatestRun, ndjson, runCli } from './helpers.js';

const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  const configDir = tempConfigDir();
  env = chatEnv(emu, configDir);
  for (const site of ['site_bakery', 'site_portfolio', 'site_docs']) await knowLatestRun(emu, configDir, site);
});
afterAll(() => emu.close());

/** On a terminal, the plan's question is answered "Decide later" (exit 11). */
const cli = (argv: string[], o: { tty?: boolean; env?: Record<string, string> } = {}) =>
  runCli(argv, {
    env: { ...env, ...o.env },
    clock,
    tty: o.tty,
    columns: 80,
    prompter: o.tty ? new ScriptedPrompter([{ select: 'Decide later' }]) : undefined,
  });
const MARKERS = /\*\*|^#{1,6} |```|^\|/m;
const strip = (s: string) => s.replace(/\u001b\[[0-9;]*[A-Za-z]|\r/g, '');

describe('the agent’s Markdown through the commands', () => {
  it('a plan on a terminal is rendered; --no-markdown and SITEBUILDER_NO_MARKDOWN show it as it came', async () => {
    const shown = await cli(['chat', 'site_bakery', '--plan', 'Make it blue and add a team page', '--yes'], {
      tty: true,
    });
    expect(shown.code, shown.stderr).toBe(11);
    expect(strip(shown.stdout)).toMatch(/^Here is my plan$/m);
    expect(strip(shown.stdout)).not.toMatch(MARKERS);
    for (const off of [{ argv: ['--no-markdown'] }, { argv: [], env: { SITEBUILDER_NO_MARKDOWN: '1' } }]) {
      const raw = await cli(['chat', 'site_portfolio', '--plan', 'Add a team page please', '--yes', ...off.argv], {
        tty: true,
        env: off.env,
      });
      expect(strip(raw.stdout)).toMatch(/^## Here is (my|the revised) plan$/m);
      expect(strip(raw.stdout)).toMatch(/^\| File \| Change \| Task \|$/m);
    }
  });

  it('piped and --json: the raw text, exactly', async () => {
    const piped = await cli(['chat', 'site_docs', '--plan', 'Add a team page and a faq page', '--yes']);
    const text = piped.stdout
      .split('\n')
      .filter((l) => l.startsWith('text\t'))
      .map((l) => l.slice(5));
    expect(text).toContain('## Here is my plan');
    expect(text.some((l) => /^1\. \*\*\w+ `\S+`\*\*: /.test(l))).toBe(true);
    const json = await cli(['chat', 'site_docs', '--plan', 'Add a blog page too', '--yes', '--json']);
    const events = ndjson(json.stdout).filter((e) => e.event === 'text');
    // The text of a text event under either shape's name (docs/emulator.md: `text`, or `content`).
    const textOf = (e: { data: Record<string, unknown> }) => String(e.data.text ?? e.data.content);
    const raw = events.map(textOf).join('');
    expect(raw).toMatch(/^## Here is the revised plan$/m);
    // The code block's CRLF, and pieces cut between its CR and LF, as the service sent them.
    expect(raw).toContain('```html\r\n');
    expect(events.some((e) => textOf(e).endsWith('\r'))).toBe(true);
  });

  it('message list: without markers on a terminal, as it came when piped', async () => {
    const tty = await cli(['message', 'list', 'site_docs', '--limit', '4'], { tty: true });
    expect(tty.code).toBe(0);
    expect(strip(tty.stdout)).not.toMatch(/\*\*|## |`/);
    expect(strip(tty.stdout)).toMatch(/ (agent|assistant) .* Let me look at the site first\. Here/);
    const piped = await cli(['message', 'list', 'site_docs', '--limit', '4']);
    expect(piped.stdout).toMatch(/## Here is the revised plan/);
  });
});
