// `sitebuilder chat` in a real terminal (tmux, its own socket): the built binary against an
// emulator running 20 times faster than the wall clock. Through a question (keys typed during
// the run never answer it) and a plan approval; the terminal is left as it was found.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { waitFor as waitForEvent } from '../helpers/wait-for.js';
import { knowLatestRun } from '../commands/chat/helpers.js';

const bin = new URL('../../bin/sitebuilder.js', import.meta.url).pathname;
const built = existsSync(new URL('../../dist/cli.js', import.meta.url));
let emu: RunningEmulator;
let t: TmuxSession;

const screen = () => t.screen();
const keys = (...k: string[]) => t.send(...k);
const waitFor = (test: RegExp, deadlineMs = 15_000): Promise<string> => t.waitFor(test, deadlineMs);

describe.skipIf(!hasTmux || !built)('chat in a real terminal', () => {
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, speed: 20 });
    const config = join(mkdtempSync(join(tmpdir(), 'sitebuilder-tmux-')), 'config');
    // A user who has chatted with the site from this machine before: its latest run is known here.
    await knowLatestRun(emu, config, 'site_bakery');
    // A shell with colour on (no NO_COLOR), where the CLI is typed.
    t = new TmuxSession(
      ['env', '-u', 'NO_COLOR', 'bash', '--norc', '--noprofile'],
      {
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_CONFIG_DIR: config,
        // The CLI's waits (the 3 s poll floor) keep pace with the emulator's clock (docs/emulator.md).
        SITEBUILDER_CLOCK_SPEED: '20',
        PS1: '$ ',
      },
      { cols: 120, rows: 40 },
    );
    await keys(`node ${bin} chat site_bakery; echo EXIT=$?`, 'Enter');
  });
  afterAll(async () => {
    t?.kill();
    await emu?.close();
  });

  it('answers a question and approves a plan, then leaves the terminal as it found it', async () => {
    await waitFor(/\? You/);
    // A short message: the agent asks, after a 30 s stall during which keys are typed. The
    // emulator's clock runs at wall speed meanwhile; the test moves it into the stall once the
    // message is sent, and past the stall once the CLI has polled again after the keys (so it
    // has read them by then).
    emu.control.setClock({ speed: 1 });
    await keys('make it nice #stall:30', 'Enter');
    await waitForEvent(() => emu.control.log({ method: 'send_message' }).length > 0, { what: 'the message sent' });
    emu.control.setClock({ advanceMs: 1_000 });
    await waitFor(/Reading your message/);
    const typedAfter = emu.control.log().at(-1)?.seq ?? 0;
    await keys('Enter');
    await keys('2', 'Enter');
    await waitForEvent(() => emu.control.log({ method: 'get_job', since: typedAfter }).length > 0, {
      what: 'a poll of the run after the keys were typed',
    });
    emu.control.setClock({ speed: 20, advanceMs: 30_000 });
    await waitFor(/What kind of site should this be\? …/);
    // What was typed during the run was acknowledged while it ran.
    expect(await screen()).toContain(
      'What you type now is kept, not sent: it shows at the prompt when the run ends, for you to edit and send with Enter.',
    );
    // A key pressed now reaches the question after any typed before it: once it has moved the
    // pointer (or something answered the question), the keys typed during the run had their chance.
    await keys('Down');
    const asked = await waitFor(/▸ A portfolio|✔ What kind of site/);
    expect(asked).not.toMatch(/✔ What kind of site/);
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(1);
    await keys('Down', 'Enter');
    await waitFor(/✔ What kind of site should this be\? · A blog/);
    await waitFor(/Done in/);
    // What was typed during the first run is the next message's text, as typed: not sent.
    await waitFor(/^\? You ‣ 2\s*$/m);
    await keys('BSpace');
    await waitFor(/^\? You ‣\s*$/m);

    await keys('/plan', 'Enter');
    // Each line typed once the prompt shows, as a person types: keys typed before it never answer it.
    await waitFor(/Plan mode[\s\S]*^\? You \(plan mode\) ‣\s*$/m);
    await keys('Add a team page with our bakers', 'Enter');
    await waitFor(/Build this plan\? …/);
    expect(await screen()).toContain('Here is my plan');
    await keys('Enter');
    await waitFor(/\+ team\.html[\s\S]*Done in[\s\S]*^\? You \(plan mode\) ‣\s*$/m);
    // An empty line sends nothing and stays; /exit leaves.
    await keys('Enter');
    await waitFor(/Nothing sent\. \/exit or Ctrl-D leaves\.[\s\S]*^\? You \(plan mode\) ‣\s*$/m);
    await keys('/exit', 'Enter');
    await waitFor(/EXIT=0/);

    const sent = emu.control.log({ method: 'send_message' }).map((e) => e.args as { prompt: string; mode?: string });
    expect(sent).toEqual([
      { projectId: 'site_bakery', prompt: 'make it nice #stall:30' },
      { projectId: 'site_bakery', prompt: 'A blog' },
      { projectId: 'site_bakery', prompt: 'Add a team page with our bakers', mode: 'plan' },
      { projectId: 'site_bakery', prompt: 'Approve the plan and build it.' },
    ]);
    // Cooked mode, echo and signals back on; the cursor shown again.
    await keys('clear; stty -a | tr " " "\\n" | grep -xE -- "-?(icanon|echo|isig)" | tr "\\n" " "; echo', 'Enter');
    const modes = await waitFor(/(-?icanon|-?echo|-?isig) (-?icanon|-?echo|-?isig) (-?icanon|-?echo|-?isig)/);
    expect(modes).toMatch(/\bisig\b/);
    expect(modes).not.toMatch(/-(icanon|echo|isig)/);
  }, 60_000);
});
