// Prompts that cannot be misanswered, in a real terminal (tmux) at 80 and 40 columns, driving the
// built binary against an emulator on port 0 (docs/guide.md "Prompts and keys typed ahead"):
// a confirmation needs Enter and keys typed while a call is in flight never answer the question
// that comes next (the stale storage plan, whose changes are marked); keys typed during a chat run
// become the next message's text, never an answer to the question; Esc on a question says what
// the next message does and /reply asks again; a stopped queue is said as stopped and /resume runs
// it; Ctrl-D leaves on a line of its own; a lone chat argument is understood as meant; upload
// checks its files before any picker. Every screen fits its width. The tests run side by side,
// each with an emulator and a terminal of its own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { knowLatestRun } from '../commands/chat/helpers.js';
import { expectFits } from '../helpers/screen.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const opened: Array<{ kill(): void } | RunningEmulator> = [];

afterAll(async () => {
  for (const o of opened.splice(0)) {
    if ('close' in o) await o.close();
    else o.kill();
  }
});

async function emulator(speed = 20): Promise<RunningEmulator> {
  const emu = await startEmulator({ port: 0, speed });
  opened.push(emu);
  return emu;
}

const envOf = (emu: RunningEmulator, config = join(mkdtempSync(join(tmpdir(), 'sb-prompts-')), 'config')) => ({
  SITEBUILDER_BASE_URL: emu.baseUrl,
  SITEBUILDER_TOKEN: DEMO_TOKENS.full,
  SITEBUILDER_CONFIG_DIR: config,
  // The CLI's waits (the 3 s poll floor) keep pace with the emulator's clock (docs/emulator.md).
  SITEBUILDER_CLOCK_SPEED: '20',
  TERM: 'xterm-256color',
});

function terminal(argv: string[], env: Record<string, string>, cols: number): TmuxSession {
  const t = new TmuxSession(argv, env, { cols, rows: 60 });
  opened.push(t);
  return t;
}

const control = async (emu: RunningEmulator, verb: string, path: string, body?: unknown) =>
  (
    (await (
      await fetch(`${emu.baseUrl}/_emulator/${path}`, {
        method: verb,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as { data: any }
  ).data;

const call = async (emu: RunningEmulator, method: string, body: unknown) =>
  (
    (await (
      await fetch(`${emu.baseUrl}/v1/${method}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.full}` },
      })
    ).json()) as { data: any }
  ).data;

/** The line of the prompt being asked (the last line starting with "?"), as it shows. */
const asking = (screen: string) =>
  screen
    .split('\n')
    .filter((l) => l.startsWith('? '))
    .at(-1)
    ?.trimEnd();

/**
 * The screen without the run view's own lines (its end line, its notes in parentheses): those are
 * src/render's, fitted by its own tests (live-view, live-tty); these tests fit what the prompts say.
 */
const withoutRunView = (screen: string) =>
  screen
    .split('\n')
    .filter((l) => !/^(\? The agent asked|\(|■ |✓ (Done|Plan ready))/.test(l))
    .join('\n');

const sent = (emu: RunningEmulator) =>
  emu.control.log({ method: 'send_message' }).map((e) => (e.args as { prompt: string }).prompt);

describe.skipIf(!hasTmux).concurrent('prompts in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`storage restore at ${cols} columns: y needs Enter; keys typed while the start is refused never answer the new plan's question; the changes are marked`, async () => {
      const emu = await emulator();
      const backups = await control(emu, 'GET', 'sites/site_bakery/storage-backups');
      const weekly = backups.find((b: any) => b.label === 'Weekly backup').backupId;
      const t = terminal(
        [process.execPath, BIN, 'storage-restore', 'site_bakery', '--backup', weekly, '--mode', 'full'],
        envOf(emu),
        cols,
      );
      await t.waitForPrompt(/^\? Start the restore\? \(y\/N\)\s*$/);
      const restoreCalls = () => emu.control.log({ method: 'restore_storage_backup' }).length;
      expect(restoreCalls()).toBe(1);
      // Someone changes the storage; the start call is held a moment, so keys typed after the
      // answer arrive while it is in flight.
      await control(emu, 'POST', 'sites/site_bakery/storage-files', {
        path: 'docs/menu.pdf',
        visibility: 'private',
        size: 10,
      });
      await control(emu, 'POST', 'faults', { method: 'restore_storage_backup', latencyMs: 1500 });
      await t.send('y');
      await t.waitForPrompt(/^\? Start the restore\? \(y\/N\) y\s*$/);
      expect(restoreCalls()).toBe(1);
      await t.send('Enter');
      await t.waitFor(/^✔ Start the restore\? · Yes$/m);
      await t.send('Enter', 'y', 'Enter');
      const again = await t.waitForPrompt(/^\? Start with the new plan\? \(y\/N\)/);
      // Nothing typed before it appeared is its answer: the question waits, empty.
      expect(asking(again)).toBe('? Start with the new plan? (y/N)');
      expect(restoreCalls()).toBe(2);
      expect(again).not.toMatch(/Start with the new plan\? · /);
      // Said once, with the rows that changed marked.
      const said = again.replace(/\n {2}/g, ' ');
      expect(said).toMatch(
        /The storage changed since the plan you saw, so nothing was restored \(request \S+\); the new plan differs in 2 rows \(~ changed, \+ new, - no longer in it\):/,
      );
      expect(said.match(/The storage changed/g)).toHaveLength(1);
      if (cols >= 80) {
        expect(again).toMatch(/^WHAT +YOU SAW +NEW PLAN$/m);
        expect(again).toMatch(/^~ Bytes removed +6\.3 KiB +3\.3 KiB$/m);
        expect(again).toMatch(/^~ deleted: docs\/menu\.pdf \(private\) +2\.9 KiB +10 B$/m);
      } else {
        expect(again).toMatch(/^WHAT {6}~ Bytes removed\nYOU SAW {3}6\.3 KiB\nNEW PLAN {2}3\.3 KiB$/m);
        expect(again).toMatch(
          /^WHAT\n {2}~ deleted: docs\/menu\.pdf \(private\)\nYOU SAW {3}2\.9 KiB\nNEW PLAN {2}10 B$/m,
        );
      }
      expect(again).not.toMatch(/‣ (true|false)|· (true|false)/);
      expectFits(again, cols, { words: [weekly] });
      await t.send('n', 'Enter');
      const done = await t.waitFor(/^EXIT=\d+$/m);
      expect(done).toMatch(/^✔ Start with the new plan\? · No$/m);
      expect(done).toContain('EXIT=130');
      expect(restoreCalls()).toBe(2);
      const files = await control(emu, 'GET', 'sites/site_bakery/storage-files');
      expect(files.find((f: any) => f.path === 'docs/menu.pdf' && f.visibility === 'private')?.size).toBe(10);
    }, 30_000);

    it(`chat at ${cols} columns: keys typed during a run are the next message, never the question's answer; Esc says what the next message does; /reply; Ctrl-D leaves on its own line`, async () => {
      const emu = await emulator();
      const env = envOf(emu);
      await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, 'site_bakery');
      const t = terminal([process.execPath, BIN, 'chat', 'site_bakery'], env, cols);
      await t.waitForPrompt(/^\? You ‣/);
      // A short message: the agent asks, after a stall during which keys are typed. The clock
      // runs at wall speed during the stall and moves past it once the keys are on their way.
      emu.control.setClock({ speed: 1 });
      await t.send('make it nice #stall:30', 'Enter');
      await waitFor(() => sent(emu).length > 0, { what: 'the message sent' });
      emu.control.setClock({ advanceMs: 1_000 });
      await t.waitFor(/Reading your message/);
      const typedAfter = emu.control.log().at(-1)?.seq ?? 0;
      await t.send('also a blog page', 'Enter', '2', 'Enter');
      // A poll after the keys: the run view has been through a wait with them typed.
      await waitFor(() => emu.control.log({ method: 'get_job', since: typedAfter }).length > 0, {
        what: 'a poll of the run after the keys were typed',
      });
      emu.control.setClock({ speed: 20, advanceMs: 30_000 });
      const asked = await t.waitForPrompt(/What kind of site should this be\?/);
      expect(asked).toMatch(/^▸ A small business site/m);
      expect(sent(emu)).toHaveLength(1);
      // Esc: the question still waits; the conversation says what the next message does.
      await t.send('Escape');
      const put = await t.waitForPrompt(/^\? You \(answers the question\) ‣/);
      const said = put.replace(/\n {2}/g, ' ');
      expect(said).toContain(
        'The question still waits: your next message is taken as its answer. /reply picks an answer · /exit leaves it waiting.',
      );
      // The text typed during the run is not offered as the answer, and it says where it went.
      expect(asking(put)).toBe('? You (answers the question) ‣');
      expect(said).toContain(
        'What you typed during the run (“also a blog page 2”) is kept for the message after this reply.',
      );
      expect(said.match(/What you typed during the run/g)).toHaveLength(1);
      // An empty line sends nothing, leaves nothing, and drops nothing: the kept text is said kept.
      await t.send('Enter');
      await t.waitFor((s) =>
        s
          .replace(/\n {2}/g, ' ')
          .includes('Nothing sent. Still kept for your next message: “also a blog page 2”. /exit or Ctrl-D leaves.'),
      );
      await t.waitForPrompt(/^\? You \(answers the question\) ‣\s*$/);
      await t.send('/reply', 'Enter');
      await t.waitFor((s) => (s.match(/\? What kind of site should this be\? …/g) ?? []).length === 1);
      await t.send('Down', 'Down', 'Enter');
      await t.waitFor(/✔ What kind of site should this be\? ·\s+A\s+blog/);
      const next = await t.waitForPrompt(/^\? You ‣ also a blog page 2\s*$/, 15_000);
      expect(sent(emu)).toEqual(['make it nice #stall:30', 'A blog']);
      expectFits(withoutRunView(next), cols, { words: ['/reply'] });
      // Ctrl-U clears the line, as in a shell.
      await t.send('C-u');
      await t.waitForPrompt(/^\? You ‣\s*$/);
      // Ctrl-D leaves; the shell's next line starts on a line of its own.
      await t.send('C-d');
      const left = await t.waitFor(/EXIT=\d+/);
      expect(left).toMatch(/^EXIT=0$/m);
      expect(sent(emu)).toEqual(['make it nice #stall:30', 'A blog']);
    }, 45_000);

    it(`chat at ${cols} columns: a line that looks like a shell command asks y/N, folded at spaces`, async () => {
      const emu = await emulator();
      const env = envOf(emu);
      await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, 'site_bakery');
      const t = terminal([process.execPath, BIN, 'chat', 'site_bakery'], env, cols);
      await t.waitForPrompt(/^\? You ‣/);
      await t.send('clear', 'Enter');
      const asked = await t.waitFor(/anyway\?.*\(y\/N\)/);
      // Waiting for y or n: no word folded at the edge ("for the s|hell", "to the ag|ent").
      expectFits(asked, cols, { words: ['shell.', 'Send it to the agent anyway?'] });
      await t.send('n', 'Enter');
      await t.waitFor(/Not sent\./);
      // Typed once the prompt shows again, as a person types: keys typed before it never answer it.
      await t.waitForPrompt(/^\? You ‣/);
      await t.send('/exit', 'Enter');
      await t.waitFor(/^EXIT=0$/m);
      expect(sent(emu)).toEqual([]);
    }, 30_000);

    it(`chat at ${cols} columns: a stopped queue is said as stopped, and /resume runs it`, async () => {
      const emu = await emulator();
      const env = envOf(emu);
      await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, 'site_bakery');
      const t = terminal([process.execPath, BIN, 'chat', 'site_bakery'], env, cols);
      await t.waitForPrompt(/^\? You ‣/);
      emu.control.setClock({ speed: 1 });
      await t.send('Add a gallery page with captions #stall:30', 'Enter');
      await waitFor(() => sent(emu).length > 0, { what: 'the message sent' });
      await t.waitFor(/working|Reading/);
      // Another person's message waits behind the run; Esc, then y, cancels the run: the queue stops.
      expect(
        (await call(emu, 'send_message', { projectId: 'site_bakery', prompt: 'Then a bigger header' })).queued,
      ).toBe(true);
      await t.send('Escape');
      await t.waitFor(/Cancel this run\? y cancels it/);
      await t.send('y');
      emu.control.setClock({ speed: 20 });
      await t.waitFor(/Cancelled/);
      await t.waitForPrompt(/^\? You ‣/);
      await t.send('Add a contact page', 'Enter');
      const queued = await t.waitFor(/Run the queue with \/resume/);
      const said = queued.replace(/\n {2}/g, ' ').replace(/\n(?=\S)/g, ' ');
      expect(said).toMatch(
        /The queue is stopped after a failed or cancelled run: your message waits at position 2 \(\S+\) and runs once the queue is resumed; do not send it again\./,
      );
      expect(queued).not.toContain('The agent is busy');
      expect(queued).not.toContain('runs on its own');
      await t.waitForPrompt(/^\? You ‣/);
      await t.send('/resume', 'Enter');
      const resumed = await t.waitFor(/bigger\s+header[\s\S]*Done in[\s\S]*\? You ‣/, 15_000);
      expectFits(withoutRunView(resumed), cols, { words: ['/resume'] });
      await t.send('/exit', 'Enter');
      await t.waitFor(/^EXIT=0$/m);
    }, 45_000);

    it(`chat and upload at ${cols} columns: a lone argument understood as meant; commands quoted; files checked before any picker`, async () => {
      const emu = await emulator(60);
      const env = envOf(emu);
      const cli = `'${process.execPath}' '${BIN}'`;
      const script = [
        `${cli} chat 'Add a contact page'`,
        `SITEBUILDER_SITE=site_bakery ${cli} chat site_bakry --no-follow`,
        `SITEBUILDER_SITE=site_bakery ${cli} chat site_portfolio </dev/null`,
        `${cli} upload`,
      ]
        .map((c, i) => `echo '== ${i}'; ${c}; echo "code $?"`)
        .join('; ');
      const t = terminal(['sh', '-c', `${script}; echo '== end'`], env, cols);
      let screen = await t.waitFor(/^EXIT=\d+$|Send your message\? \(Y\/n\)/m, 20_000);
      // A service whose history names no run with a time (the alternate shape) leaves the CLI
      // unable to tell whether a question waits: it asks before sending; Enter takes the default.
      if (!/^EXIT=\d+$/m.test(screen)) {
        expect(screen).toContain('Cannot tell whether a question or plan');
        await t.send('Enter');
        screen = await t.waitFor(/^EXIT=\d+$/m, 20_000);
      }
      const part = (i: number) => screen.split(`== ${i}\n`)[1].split('\n== ')[0];
      const flat = (i: number) => part(i).replace(/\s*\n\s*/g, ' ');
      // A message without a site to go to: exit 2, both forms, quoted for the shell.
      expect(flat(0)).toContain(
        "No default site is set to send this message to, so nothing was sent: name the site, as in `sitebuilder chat SITE 'Add a contact page'`, or set a default site with `sitebuilder site use SITE`, then run `sitebuilder chat 'Add a contact page'`.",
      );
      expect(part(0)).toMatch(/code 2$/m);
      // `site_bakry` is no site: refused with the closest id, never sent as a message.
      expect(flat(1)).toContain(
        'No site has the id site_bakry, so nothing was sent; did you mean site_bakery? To send it as a message to site_bakery, the default site: `sitebuilder chat site_bakery site_bakry`',
      );
      expect(part(1)).toMatch(/code 2$/m);
      expect(sent(emu)).toEqual([]);
      // A site that exists is the site, even with another default.
      expect(flat(2)).toMatch(
        /A conversation needs a terminal, and prompts are off here: standard input is not a terminal\. Here, pass the message \(or --answer, --choose, --approve, --revise\):\s+sitebuilder chat site_portfolio '…'/,
      );
      // No files: said before any site is picked or asked for.
      expect(flat(3)).toContain(
        'Name the files to upload (the site may be left out once `sitebuilder site use` set a default): sitebuilder upload SITE FILE...',
      );
      expect(part(3)).toMatch(/code 2$/m);
      expect(part(3)).not.toMatch(/Which site|Loading/);
      // One read of the workspaces: the suggestion for site_bakry; none for upload (no picker).
      expect(emu.control.log({ method: 'list_workspaces' })).toHaveLength(1);
      expectFits(screen, cols);
    }, 30_000);
  }
});
