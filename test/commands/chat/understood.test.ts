// What the user meant, in-process against the emulator: a lone `chat` argument is the site or
// the message (the service's 404 decides, never a guess that sends a message to the wrong place);
// a question put off in a conversation is said with what the next message does to it, /reply asks
// again, and leaving names the commands that answer later; a stopped queue is said as stopped and
// /resume runs it; upload checks its files before any site is picked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { rx, SHAPES } from '../../helpers/shapes.js';
import { chatEnv, knowLatestRun, runCli, ScriptedPrompter } from './helpers.js';

const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
});
afterAll(() => emu.close());
beforeEach(async () => {
  emu.control.reset();
  env = chatEnv(emu);
  await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, 'site_bakery');
});

const cli = (args: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) => runCli(args, { env, clock, ...o });
const sends = () => emu.control.log({ method: 'send_message' }).map((e) => e.args);

describe('a lone chat argument', () => {
  it('with a space, it is the message: without a default site, exit 2 showing both forms, nothing asked of the service', async () => {
    const r = await cli(['chat', 'Add a contact page']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: No default site is set to send this message to, so nothing was sent: name the site, as in `sitebuilder chat SITE 'Add a contact page'`, or set a default site with `sitebuilder site use SITE`, then run `sitebuilder chat 'Add a contact page'`.\n",
    );
    expect(emu.control.log()).toEqual([]);
  });

  it('with a space and a default site, it is the message for that site, said so', async () => {
    const r = await cli(['chat', 'Add a contact page', '--no-follow'], {
      env: { ...env, SITEBUILDER_SITE: 'site_bakery' },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Sending it as a message to site_bakery, the default site.');
    expect(sends()).toEqual([{ projectId: 'site_bakery', prompt: 'Add a contact page' }]);
  });

  it('of an id’s form: the site when the service knows it, else refused with the closest ids, nothing sent', async () => {
    const withDefault = { ...env, SITEBUILDER_SITE: 'site_portfolio' };
    await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, 'site_portfolio');
    // A mistyped id is never a paid message, default site or not: exit 2, "did you mean".
    const typo = await cli(['chat', 'site_bakry', '--no-follow'], { env: withDefault });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'error: No site has the id site_bakry, so nothing was sent; did you mean site_bakery? To send it as a message to site_portfolio, the default site: `sitebuilder chat site_portfolio site_bakry`\n',
    );
    // One read of the workspaces and of their sites, bounded; nothing written.
    expect(emu.control.log().filter((e) => !/^(list_|get_)/.test(e.method ?? ''))).toEqual([]);
    expect(emu.control.log({ method: 'list_workspaces' })).toHaveLength(1);
    const far = await cli(['chat', 'hello'], { env: withDefault });
    expect(far.code).toBe(2);
    expect(far.stderr).toContain(
      'No site has the id hello, so nothing was sent; `sitebuilder site list` shows the sites this token reaches. To send it as a message to site_portfolio, the default site: `sitebuilder chat site_portfolio hello`',
    );
    // The command it prints does what it says: the word, as a message to the default site.
    const sent = await cli(['chat', 'site_portfolio', 'hello', '--no-follow'], { env: withDefault });
    expect(sent.code).toBe(0);
    expect(sends()).toEqual([{ projectId: 'site_portfolio', prompt: 'hello' }]);
    // A part of an id is suggested too.
    const part = await cli(['chat', 'bakery']);
    expect(part.stderr).toContain('did you mean site_bakery?');
    // A site that exists is the site (a conversation, which needs a terminal here).
    const site = await cli(['chat', 'site_docs'], { env: withDefault });
    expect(site.code).toBe(2);
    expect(site.stderr).toContain(
      "A conversation needs a terminal, and prompts are off here: standard input is not a terminal, standard error is not a terminal. Here, pass the message (or --answer, --choose, --approve, --revise): sitebuilder chat site_docs '…'",
    );
    // The default site itself needs no question to the service.
    emu.control.clearLog();
    await cli(['chat', 'site_portfolio'], { env: withDefault });
    expect(emu.control.log({ method: 'list_messages' })).toEqual([]);
    // Without a default site, an id the service does not know is neither: exit 2, nothing sent.
    const nowhere = await cli(['chat', 'hello']);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toBe(
      'error: No site has the id hello, so nothing was sent; `sitebuilder site list` shows the sites this token reaches.\n',
    );
    expect(sends()).toEqual([]);
  });

  it('with --job, or a reply flag, nothing is looked up: the flags say what it is', async () => {
    emu.control.clearLog();
    const r = await cli(['chat', 'site_bakery', '--job', 'job 1']);
    expect(r.code).toBe(2);
    expect(emu.control.log()).toEqual([]);
  });
});

describe('a conversation', () => {
  it('a question put off with Esc: said once with the ways out; the prompt says what a message does; /reply asks again; leaving names the commands', async () => {
    const prompter = new ScriptedPrompter(['make it nice', null, '/reply', 'A blog', 'hi there', null, '/exit']);
    const r = await cli(['chat', 'site_bakery'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual([
      'You',
      'What kind of site should this be?',
      'You (answers the question)',
      'What kind of site should this be?',
      'You',
      'What kind of site should this be?',
      'You (answers the question)',
    ]);
    // Sentences as one line each (a terminal's width wraps them).
    const said = r.stderr.replace(/\n {2}(?!sitebuilder)/g, ' ');
    expect(said).toContain(
      'The question still waits: your next message is taken as its answer. /reply picks an answer · /exit leaves it waiting.',
    );
    // Not the one-shot commands in the middle of the conversation; only when leaving it.
    expect(said.match(/The question still waits/g)).toHaveLength(3);
    expect(said.match(/sitebuilder chat/g)).toHaveLength(5);
    expect(r.stderr).toMatch(
      rx()`The question still waits; answer it later with one of:\n  1\. A small business site\n    sitebuilder chat site_bakery --choose 1 --job ${'job'}\n(.*\n){6}  Or in your own words \(in place of …\):\n    sitebuilder chat site_bakery --answer '…' --job ${'job'}\n$`,
    );
    expect(sends().map((a: any) => a.prompt)).toEqual(['make it nice', 'A blog', 'hi there']);
  });
});

describe('lines meant for something else', () => {
  it('a shell command or a slash word mistyped asks first; No sends nothing; an empty line stays', async () => {
    const prompter = new ScriptedPrompter([
      'clear',
      'no',
      '/exti',
      'cd ..',
      null,
      '',
      '/plan Move the menu to its own page',
      'no',
      'exit',
      'yes',
      null,
      '/exit',
    ]);
    const r = await cli(['chat', 'site_bakery'], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual([
      'You',
      '“clear” looks like a command for the shell. Send it to the agent anyway?',
      'You',
      'You',
      '“cd ..” looks like a shell command. Send it to the agent anyway?',
      'You',
      'You',
      '/plan is a command that takes no words. Send it to the agent anyway?',
      'You',
      '“exit” looks like a command for the shell. Send it to the agent anyway?',
      'What kind of site should this be?',
      'You (answers the question)',
    ]);
    const said = r.stderr.replace(/\n {2}/g, ' ');
    expect(said).toContain('Unknown command /exti; did you mean /exit? Nothing was sent.');
    expect(said.match(/Not sent\. \/help lists the commands; \/exit leaves\./g)).toHaveLength(3);
    expect(said).toContain('Nothing sent. /exit or Ctrl-D leaves.');
    // Only what was confirmed went to the agent.
    expect(sends().map((a: any) => a.prompt)).toEqual(['exit']);
  });
});

describe('lines meant for something else, on a narrow terminal', () => {
  it.each([40, 60])(
    'at %i columns says why above a short question, folded at spaces, never mid-word',
    async (columns) => {
      const prompter = new ScriptedPrompter(['clear', 'no', 'ls', 'no', '/exit']);
      const r = await cli(['chat', 'site_bakery'], { tty: true, prompter, columns });
      expect(r.code).toBe(0);
      expect(r.prompts).toEqual(['You', 'Send it to the agent anyway?', 'You', 'Send it to the agent anyway?', 'You']);
      // The question with its `? `, ` › ` and `(y/N)` fits the line.
      expect('? Send it to the agent anyway? › (y/N) '.length).toBeLessThanOrEqual(columns);
      for (const line of r.stderr.split('\n')) expect(line.length, line).toBeLessThanOrEqual(columns);
      const said = r.stderr.replace(/\n {2}/g, ' ');
      expect(said).toContain('“clear” looks like a command for the shell.');
      expect(said).toContain('“ls” looks like a command for the shell.');
      expect(r.stderr).not.toMatch(/\bs\nhell|\bag\nent/);
      expect(sends()).toEqual([]);
    },
  );
});

describe('a stopped queue', () => {
  it('is said as stopped, never as a busy agent, with the command (or /resume) that runs it', async () => {
    await cli(['chat', 'site_bakery', 'Add every page you can think of #long', '--no-follow']);
    await cli(['chat', 'site_bakery', 'Then make the header bigger please', '--no-follow']);
    expect((await cli(['job', 'cancel', 'site_bakery'])).code).toBe(0);
    // Cancelled by another command: what happened since is not seen here, so --yes sends.
    const piped = await cli(['chat', 'site_bakery', 'Add a contact page to the site', '--no-follow', '--yes']);
    expect(piped.stdout).toMatch(rx()`^queued\t2\t${'qmsg'}\n$`);
    expect(piped.stderr).toContain('Run the queue with: sitebuilder queue resume site_bakery');
    // What waits cannot be told (the run before the queue ended unseen): the first message is confirmed.
    const prompter = new ScriptedPrompter(['And a map on the contact page', 'yes', '/resume', '/exit']);
    const r = await cli(['chat', 'site_bakery'], { tty: true, prompter });
    expect(r.code).toBe(0);
    const said = `${r.stdout}${r.stderr}`.replace(/\n {2}/g, ' ');
    expect(said).toMatch(
      rx()`The queue is stopped after a failed or cancelled run: your message waits at position 3 \(${'qmsg'}\) and runs once the queue is resumed; do not send it again\.`,
    );
    expect(said).toContain('Run the queue with /resume; /queue shows it.');
    expect(said).not.toMatch(/agent is busy|runs on its own/);
    expect(emu.control.log({ method: 'resume_queue' })).toHaveLength(1);
    // The run /resume started is followed in the conversation, to its end.
    expect(said).toMatch(/I'll update Sunrise Bakery: Then make the header bigger please/);
  });
});

// Refused before any request (the log says so): no shape reaches it, so run in the default project only.
describe.skipIf(SHAPES === 'alternate')('upload', () => {
  it('without files says so before any site is picked or anything is asked of the service', async () => {
    const prompter = new ScriptedPrompter([]);
    const r = await cli(['upload'], { tty: true, prompter });
    expect(r.code).toBe(2);
    expect(r.stderr.replace(/\s*\n\s*/g, ' ')).toContain(
      'Name the files to upload (the site may be left out once `sitebuilder site use` set a default): sitebuilder upload SITE FILE...',
    );
    expect(r.prompts).toEqual([]);
    expect(emu.control.log()).toEqual([]);
  });
});
