// `sitebuilder chat` in-process against the emulator: every way a run ends, questions and plans
// answered with flags and interactively, Ctrl-C, queueing, and what went over the wire.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { ESC, Interrupts } from '../../../src/interrupts.js';
import { fieldName, rx } from '../../helpers/shapes.js';
import { tempConfigDir } from '../../helpers/run.js';
import { chatEnv, InterruptingClock, jobEvents, knowLatestRun, ndjson, runCli, ScriptedPrompter } from './helpers.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;
let configDir: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
});
afterAll(() => emu.close());
// Each test is a user who has chatted with site_bakery from this machine before (its latest run
// is known here), so the stories read the same whatever the history's records show; a machine
// that knows no run is in chat-latest-run.test.ts.
/** A fresh emulator state, and a fresh machine that knows the site's latest run. */
async function startOver(): Promise<void> {
  emu.control.reset();
  configDir = tempConfigDir();
  env = chatEnv(emu, configDir);
  await knowLatestRun(emu, configDir, SITE);
}
beforeEach(startOver);

const chat = (args: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) =>
  runCli(['chat', SITE, ...args], { env, clock, ...o });
const calls = (method: string) => emu.control.log({ method });

describe('one-shot chat', () => {
  it('follows a build to success: plain lines a script can grep, exit 0, polling within budget', async () => {
    const r = await chat(['Add an about page and a contact page, in blue']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(rx('m')`^job\tsite_bakery\t${'job'}$`);
    expect(r.stdout).toMatch(/^text\tI'll update Sunrise Bakery/m);
    expect(r.stdout).toContain('file\t+\tabout.html');
    expect(r.stdout).toContain('file\t~\tindex.html');
    expect(r.stdout).toMatch(/^todo\tdone\tAdd the Contact page$/m);
    expect(r.stdout).toMatch(/^end\tsucceeded\texit=0\tcredits=\d+$/m);
    expect(r.stdout).not.toMatch(/\u001b|\r/);
    const sends = calls('send_message');
    expect(sends).toHaveLength(1);
    expect(sends[0].idempotencyKey).toBeTruthy();
    // About 20 emulated seconds of run: quick polls while events flow, never a tight loop.
    const polls = calls('get_job');
    expect(polls.length).toBeGreaterThan(3);
    expect(polls.length).toBeLessThan(40);
  });

  it('--json prints NDJSON: events unchanged, exactly one end line', async () => {
    const r = await chat(['Add a gallery page please', '--json']);
    expect(r.code).toBe(0);
    const lines = ndjson(r.stdout);
    expect(lines[0]).toMatchObject({ type: 'start', projectId: SITE });
    expect(lines.filter((l) => l.type === 'end')).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({ type: 'end', state: 'succeeded', exitCode: 0, error: null, pending: null });
    expect(lines.at(-1).creditsCharged).toBeGreaterThan(0);
    // Exactly the events the service answered, in order, whatever their shape.
    const events = lines.filter((l) => 'event' in l);
    expect(events).toEqual(await jobEvents(emu, SITE, lines[0].jobId));
    expect(events.some((l) => l.event === 'file_changed' && Object.values(l.data).includes('gallery.html'))).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('a failed run exits 6 with the error', async () => {
    const r = await chat(['Rebuild the whole menu #fail', '--json']);
    expect(r.code).toBe(6);
    const end = ndjson(r.stdout).at(-1);
    // The job's error object as the service gave it (its fields are not shown).
    // Its code and message read from the job's error object (whose fields are not shown), and the
    // object as the service gave it.
    const code = fieldName('get_job', 'error.code');
    expect(end).toMatchObject({
      state: 'failed',
      exitCode: 6,
      error: {
        code: 'agent_build_failed',
        message: 'The agent could not finish: the page template could not be compiled.',
        raw: { [code]: 'agent_build_failed' },
      },
    });
    const plain = await chat(['Rebuild the whole menu #fail']);
    expect(plain.code).toBe(6);
    expect(plain.stdout).toMatch(/^error\tThe agent could not finish/m);
    expect(plain.stdout).toMatch(/^end\tfailed\texit=6/m);
  });

  it('a stalled run is shown as such, then goes on', async () => {
    const r = await chat(['Add opening hours to the home page #stall:40']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^state\tstalled$/m);
    expect(r.stdout).toMatch(/^state\trunning$/m);
    // Idle for 40 s: the poller slowed down instead of polling every second.
    expect(calls('get_job').length).toBeLessThan(30);
  });

  it('a reset replays the run without printing anything twice', async () => {
    const r = await chat(['Add an about page and a contact page #reset']);
    expect(r.code).toBe(0);
    const fileLines = r.stdout.split('\n').filter((l) => l.startsWith('file\t'));
    expect(new Set(fileLines).size).toBe(fileLines.length);
    expect(r.stdout.match(/^text\tI'll update/gm)).toHaveLength(1);
    const json = await chat(['Add a team page and a faq page #reset', '--json']);
    expect(ndjson(json.stdout).some((l) => l.type === 'reset')).toBe(true);
  });

  it('--timeout stops following with exit 8 and the command that re-attaches', async () => {
    const before = clock.now();
    const r = await chat(['Add every page you can think of #long', '--timeout', '10s']);
    expect(r.code).toBe(8);
    expect(clock.now() - before).toBe(10_000);
    expect(r.stderr).toMatch(rx()`Re-attach with: sitebuilder job watch site_bakery ${'job'}`);
  });
});

describe('questions and plans', () => {
  it('a question exits 10 with its options and the commands that answer; --choose answers it', async () => {
    const r = await chat(['make it nice']);
    expect(r.code).toBe(10);
    expect(r.stdout).toMatch(/^question\tWhat kind of site should this be\?$/m);
    expect(r.stdout).toMatch(/^option\t2\tA portfolio$/m);
    const jobId = rx()`--job (${'job'})`.exec(r.stderr)![1];
    for (const n of [1, 2, 3, 4])
      expect(r.stderr).toContain(`sitebuilder chat site_bakery --choose ${n} --job ${jobId}`);
    expect(r.stderr).toMatch(/^ {2}2\. A portfolio\n {4}sitebuilder chat site_bakery --choose 2 --job /m);
    expect(r.stderr).toContain(`sitebuilder chat site_bakery --answer '…' --job ${jobId}`);
    await startOver();
    const json = await chat(['make it nicer', '--json']);
    expect(json.code).toBe(10);
    expect(ndjson(json.stdout).at(-1).pending).toMatchObject({
      kind: 'question',
      question: 'What kind of site should this be?',
      options: expect.arrayContaining(['A blog']),
    });

    const choose = await chat(['--choose', '3', '--job', ndjson(json.stdout).at(-1).jobId]);
    expect(choose.code).toBe(0);
    expect(calls('send_message').at(-1)!.args).toMatchObject({ prompt: 'A blog' });
    expect(choose.stdout).toContain('text\tThanks, going with “A blog”.');
    const bad = await chat(['--choose', '9']);
    expect(bad.code).toBe(2);
  });

  it('--choose out of range, or a placeholder (N, <n>), lists one whole command per answer and sends nothing', async () => {
    const asked = await chat(['make it nice']);
    expect(asked.code).toBe(10);
    const jobId = rx()`--job (${'job'})`.exec(asked.stderr)![1];
    const before = emu.control.log().length;
    const out = await chat(['--choose', '9']);
    expect(out.code).toBe(2);
    const said = out.stderr.replace(/\s+/g, ' ');
    expect(said).toContain('--choose takes 1 to 4 for this question; nothing was sent.');
    for (const [n, option] of ['A small business site', 'A portfolio', 'A blog', 'An online shop'].entries())
      expect(said).toContain(`\`sitebuilder chat site_bakery --choose ${n + 1} --job ${jobId}\` (${option})`);
    expect(
      emu.control
        .log()
        .slice(before)
        .filter((e) => e.method === 'send_message'),
    ).toEqual([]);
    for (const placeholder of ['N', '<n>']) {
      const since = emu.control.log().length;
      const r = await chat(['--choose', placeholder, '--job', jobId]);
      expect(r.code, placeholder).toBe(2);
      expect(r.stderr).toContain(`--choose ${placeholder} holds a placeholder`);
      expect(r.stderr).toContain('Nothing was sent.');
      // The question read back (reads only): each answer's whole command, with its label.
      const told = r.stderr.replace(/\s+/g, ' ');
      for (const [n, option] of ['A small business site', 'A portfolio', 'A blog', 'An online shop'].entries())
        expect(told).toContain(`\`sitebuilder chat site_bakery --choose ${n + 1} --job ${jobId}\` (${option})`);
      // Nothing printed to paste that is itself a placeholder (SITE, JOB, N).
      expect(r.stderr).not.toMatch(/sitebuilder \S+ .*\b(SITE|JOB|N)\b/);
      const read = emu.control.log().slice(since);
      expect(read.map((e) => e.method)).toContain('get_job');
      expect(read.filter((e) => e.method !== 'get_job' && e.method !== 'list_messages')).toEqual([]);
    }
    // A run that cannot be read: said plainly, nothing sent.
    const sent = calls('send_message').length;
    const gone = await chat(['--choose', 'N', '--job', 'job_999999']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('--choose N holds a placeholder');
    expect(gone.stderr.replace(/\s+/g, ' ')).toMatch(/could not be read|cannot be listed/);
    expect(calls('send_message')).toHaveLength(sent);
  });

  it('--answer and --choose without --job answer the latest question', async () => {
    expect((await chat(['shop'])).code).toBe(10);
    const a = await chat(['--answer', 'An online shop for bread']);
    expect(a.code).toBe(0);
    expect((await chat(['blog'])).code).toBe(10);
    const c = await chat(['--choose', '1']);
    expect(c.code).toBe(0);
    expect(calls('send_message').at(-1)!.args).toMatchObject({ prompt: 'A small business site' });
  });

  it('a question is answered interactively, "Other" included, and typed keys never answer it', async () => {
    const prompter = new ScriptedPrompter([/^Other/, 'A site for our bakery with a menu']);
    const r = await chat(['make it pop'], { tty: true, prompter, stdin: '\r\r1\r' });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['What kind of site should this be?', 'Your answer']);
    expect(r.stdout).not.toContain('What kind of site');
    expect(calls('send_message').map((e) => (e.args as any).prompt)).toEqual([
      'make it pop',
      'A site for our bakery with a menu',
    ]);
  });

  it('a plan exits 11 without a prompt; --revise gets a revised plan; --approve builds it', async () => {
    const p = await chat(['--plan', 'Add a gallery page with photos of our bread']);
    expect(p.code).toBe(11);
    expect(p.stdout).toContain('plan\twaiting for approval');
    expect(p.stdout).not.toMatch(/^file\t/m);
    expect(p.stderr).toContain('sitebuilder chat site_bakery --approve');
    const json = await chat(['--revise', 'Also add a pricing page', '--json']);
    expect(json.code).toBe(11);
    const end = ndjson(json.stdout).at(-1);
    expect(end.pending.kind).toBe('plan');
    expect(end.pending.plan).toContain('Here is the revised plan');
    expect(calls('send_message').at(-1)!.args).toMatchObject({ mode: 'plan' });
    const a = await chat(['--approve']);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain('file\t+\tgallery.html');
    expect(a.stdout).toContain('file\t+\tpricing.html');
  });

  it('a plan is approved interactively; Decide later exits 11', async () => {
    const approve = await chat(['--plan', 'Add a team page with our bakers'], {
      tty: true,
      prompter: new ScriptedPrompter(['Approve and build']),
    });
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain('+ team.html');
    expect(approve.stdout).toContain('Plan ready');
    expect(calls('send_message').map((e) => (e.args as any).mode ?? 'build')).toEqual(['plan', 'build']);
    const later = await chat(['--plan', 'Add an events page'], {
      tty: true,
      prompter: new ScriptedPrompter(['Decide later']),
    });
    expect(later.code).toBe(11);
  });
});

describe('replies check what waits; a new message does not answer a waiting question unseen', () => {
  const sent = () => calls('send_message').length;

  it('--approve, --revise, --answer and --choose with nothing waiting send nothing and exit 2', async () => {
    for (const [args, says] of [
      [
        ['--approve'],
        rx()`No plan waits for approval on site_bakery \(its latest run, ${'job'}, succeeded\); --approve sent nothing\. To ask for a plan: sitebuilder chat site_bakery --plan`,
      ],
      [['--revise', 'also add prices'], /No plan waits for approval .*--revise sent nothing/],
      [
        ['--answer', 'A blog'],
        /No question waits for an answer on site_bakery .*--answer sent nothing\. To send it as a new message: sitebuilder chat site_bakery/,
      ],
      [['--choose', '1'], /No question waits for an answer .*--choose sent nothing\. To send it as a new message/],
    ] as const) {
      const r = await chat([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toContain('answer with --answer TEXT instead');
    }
    expect(sent()).toBe(0);
  });

  it('--revise while a run is going on is refused, not queued; --answer while a plan waits names --approve', async () => {
    await chat(['Add every page you can think of #long', '--no-follow']);
    const r = await chat(['--revise', 'also add prices']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(rx()`its latest run, ${'job'}, is running`);
    expect(sent()).toBe(1);
    clock.advance(200_000);
    // The run ended unseen from here: what waits since cannot be told, so the next message needs --yes.
    expect((await chat(['--plan', 'Add a gallery page with photos'])).code).toBe(5);
    expect((await chat(['--plan', 'Add a gallery page with photos', '--yes'])).code).toBe(11);
    const a = await chat(['--answer', 'yes']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('Its plan waits: approve it with `sitebuilder chat site_bakery --approve');
    expect(sent()).toBe(2);
  });

  it('a message while a question waits: exit 10 naming the flags, nothing sent; --yes sends it as the answer', async () => {
    expect((await chat(['make it nice'])).code).toBe(10);
    const r = await chat(['Add a gallery page']);
    expect(r.code).toBe(10);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      rx()`A question from run ${'job'} waits on site_bakery, and the agent would take this message as its answer\. Nothing was sent\.`,
    );
    const waiting = rx()`from run (${'job'}) waits`.exec(r.stderr)![1];
    // One whole command per suggested answer, the answer beside it; no `--choose N` to fill in.
    const cmd = (flag: string) => `\`sitebuilder chat site_bakery ${flag} --job ${waiting}\``;
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(
      `Answer with one of ${cmd('--choose 1')} (A small business site), ${cmd('--choose 2')} (A portfolio), ${cmd('--choose 3')} (A blog), ${cmd('--choose 4')} (An online shop), or in your own words (in place of …) with ${cmd("--answer '…'")}`,
    );
    expect(r.stderr).not.toMatch(/--choose N\b/);
    expect(r.stderr).toContain('--yes');
    const json = await chat(['Add a gallery page', '--json']);
    expect(json.code).toBe(10);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr).error).toMatchObject({ exitCode: 10 });
    expect(sent()).toBe(1);
    const yes = await chat(['Add a gallery page', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.stderr).toContain('Sending it so (--yes)');
    expect(yes.stdout).toContain('text\tThanks, going with “Add a gallery page”.');
  });

  it('a message while a plan waits exits 11; in a terminal it is sent only when confirmed', async () => {
    expect((await chat(['--plan', 'Add a team page with our bakers'])).code).toBe(11);
    const r = await chat(['Add a gallery page']);
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('would take this message as its approval');
    const no = await chat(['Add a gallery page'], { tty: true, prompter: new ScriptedPrompter(['no']) });
    expect(no.code).toBe(11);
    expect(no.prompts).toEqual(['Send your message as the reply?']);
    expect(no.stderr).toContain('Nothing was sent; the plan still waits.');
    expect(sent()).toBe(1);
    const yes = await chat(['Add a gallery page'], { tty: true, prompter: new ScriptedPrompter(['yes']) });
    expect(yes.code).toBe(0);
    expect(calls('send_message').at(-1)!.args).toMatchObject({ prompt: 'Add a gallery page' });
  });

  it('a conversation asks the waiting question first', async () => {
    expect((await chat(['make it nice'])).code).toBe(10);
    const prompter = new ScriptedPrompter(['A blog', '/exit']);
    const r = await chat([], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(rx()`The agent's question from run ${'job'} still waits:`);
    expect(r.prompts).toEqual(['What kind of site should this be?', 'You']);
    expect(calls('send_message').at(-1)!.args).toMatchObject({ prompt: 'A blog' });
    // Pretty output: the question is the select's, not printed before it as well.
    expect(r.stdout).not.toContain('What kind of site');
  });
});

describe('Ctrl-C, queueing and the other commands', () => {
  it('Esc then y cancels the run (exit 130, said as it ended); Ctrl-C stops following, the run going on', async () => {
    const interrupts = new Interrupts();
    const cancelled = await chat(['Add every page you can think of #long'], {
      interrupts,
      clock: new InterruptingClock(interrupts, [], clock.now(), [3]),
    });
    expect(cancelled.code).toBe(130);
    expect(calls('cancel_job')).toHaveLength(1);
    expect(cancelled.stderr).toContain('Cancel this run? y cancels it · any other key keeps it going');
    expect(cancelled.stdout).toMatch(/^end\tcancelled\texit=130\tcredits=\d+$/m);
    // What job watch shows after is what was said: cancelled.
    const jobId = rx()`^job\tsite_bakery\t(${'job'})$`.exec(cancelled.stdout.split('\n')[0])![1];
    clock.advance(120_000);
    const seen = await runCli(['job', 'watch', SITE, jobId], { env, clock });
    expect(seen.stdout).toMatch(/^end\tcancelled\texit=1/m);
    await startOver();
    // Esc, then any other key: nothing is cancelled; the run goes on to its end.
    const i1 = new Interrupts();
    const kept = await chat(['Add an about page and a contact page'], {
      interrupts: i1,
      clock: {
        now: () => clock.now(),
        sleep: (ms, signal) => {
          if (i1.press(ESC)) i1.press('n');
          return clock.sleep(ms, signal);
        },
      },
    });
    expect(kept.code).toBe(0);
    expect(kept.stderr).toContain('Not cancelled; the run goes on.');
    expect(calls('cancel_job')).toHaveLength(0);
    await startOver();
    // Ctrl-C stops following at once: no cancel is sent, the run goes on.
    const i2 = new Interrupts();
    const stopped = await chat(['Add every page you can think of #long', '--json'], {
      interrupts: i2,
      clock: new InterruptingClock(i2, [2], clock.now()),
    });
    expect(stopped.code).toBe(130);
    expect(calls('cancel_job')).toHaveLength(0);
    const end = ndjson(stopped.stdout).at(-1);
    expect(end).toMatchObject({
      type: 'end',
      outcome: 'detached',
      reason: 'interrupted',
      exitCode: 130,
      reattach: expect.stringMatching(rx()`^sitebuilder job watch site_bakery ${'job'}$`),
    });
    // The run went on to its end, as was said.
    clock.advance(600_000);
    const after = await runCli(['job', 'watch', SITE, ndjson(stopped.stdout)[0].jobId], { env, clock });
    expect(after.stdout).toMatch(/^end\tsucceeded\texit=0/m);
    await startOver();
    const i3 = new Interrupts();
    const plain = await chat(['Add every page you can think of #long'], {
      interrupts: i3,
      clock: new InterruptingClock(i3, [1], clock.now()),
    });
    expect(plain.code).toBe(130);
    expect(plain.stdout).toMatch(/^end\tdetached\texit=130\treason=interrupted$/m);
    expect(plain.stderr).toMatch(
      rx(
        'm',
      )`^Stopped following; the run goes on\. Re-attach with: sitebuilder job watch site_bakery ${'job'}\nCancel it with: sitebuilder job cancel site_bakery --job ${'job'}$`,
    );
    clock.advance(120_000);
  });

  it('Ctrl-C while cancel_job is slow stops following at once: the cancel is aborted, 130, the re-attach command', async () => {
    // The cancel hangs (a minute of latency); the second press comes while it is on its way.
    emu.control.addFault({ method: 'cancel_job', latencyMs: 60_000 });
    const interrupts = new Interrupts();
    const take = emu.emulator.faults.take.bind(emu.emulator.faults);
    const spy = vi.spyOn(emu.emulator.faults, 'take').mockImplementation((method) => {
      if (method === 'cancel_job') interrupts.fire();
      return take(method);
    });
    try {
      const r = await chat(['Add every page you can think of #long'], {
        interrupts,
        clock: new InterruptingClock(interrupts, [], clock.now(), [2]),
      });
      expect(r.code).toBe(130);
      expect(r.stdout).toMatch(/^end\tdetached\texit=130\treason=interrupted$/m);
      expect(r.stderr).toMatch(
        rx()`Stopped following before the cancel was confirmed.*Re-attach with: sitebuilder job watch site_bakery ${'job'}`,
      );
      // A cancel may have reached the service: no second cancel command is offered.
      expect(r.stderr).not.toContain('Cancel it with');
    } finally {
      spy.mockRestore();
      clock.advance(120_000);
    }
  }, 5_000);

  it('a message sent while the agent is busy is queued (exit 8, or 0 with --no-follow) and never sent again', async () => {
    const started = await chat(['Add every page you can think of #long', '--no-follow']);
    expect(started.code).toBe(0);
    const jobId = started.stdout.trim();
    expect(jobId).toMatch(rx()`^${'job'}`);
    const q = await chat(['Then make the header bigger please']);
    expect(q.code).toBe(8);
    expect(q.stdout).toMatch(rx('m')`^queued\t1\t${'qmsg'}$`);
    const q2 = await chat(['And a footer with our address', '--no-follow', '--json']);
    expect(q2.code).toBe(0);
    expect(JSON.parse(q2.stdout)).toMatchObject({ queued: true, queuePosition: 2, queueResumable: false });
    expect(calls('send_message')).toHaveLength(3);

    const list = await runCli(['queue', 'list', SITE], { env, clock });
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    // Cancel: the queue stops; a later message says it is resumable.
    const cancel = await runCli(['job', 'cancel', SITE], { env, clock });
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toContain(`${jobId}\tcancelled`);
    expect(cancel.stderr).toContain('queue resume');
    // Cancelled from another command: --job names the latest run (what may have happened since is not seen here).
    const q3 = await chat(['One more change to the menu', '--job', jobId, '--json']);
    expect(q3.code).toBe(8);
    expect(ndjson(q3.stdout)[0]).toMatchObject({ type: 'queued', queuePosition: 3, queueResumable: true });
    const resume = await runCli(['queue', 'resume', SITE], { env, clock });
    const next = resume.stdout.trim();
    expect(next).toMatch(rx()`^${'job'}`);
    const watch = await runCli(['job', 'watch', SITE, next], { env, clock });
    expect(watch.code).toBe(0);
    expect(watch.stdout).toMatch(rx('m')`^note\tAttached to run ${'job'}, running;`);
    expect(watch.stdout).toMatch(/^end\tsucceeded\texit=0/m);
  });

  it('a conversation: a message sent while the agent is busy is queued once; /queue, /cancel, /plan; /exit leaves', async () => {
    await chat(['Add every page you can think of #long', '--no-follow']);
    const prompter = new ScriptedPrompter([
      'Then make the header bigger please',
      '/queue',
      '/cancel',
      '/plan',
      '/nope',
      '',
      '/exit',
    ]);
    const r = await chat([], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['You', 'You', 'You', 'You', 'You (plan mode)', 'You (plan mode)', 'You (plan mode)']);
    // An empty line sends nothing and does not leave.
    expect(r.stderr).toContain('Nothing sent. /exit or Ctrl-D leaves.');
    // Prose on a terminal is wrapped at word boundaries: read as one sentence.
    expect(r.stdout.replace(/\n\s*/g, ' ')).toMatch(rx()`your message waits in the queue at position 1 \(${'qmsg'}\)`);
    expect(r.stdout).toMatch(rx('m')`^1 +${'qmsg'} +build`);
    expect(r.stderr).toMatch(/cancelled; what the agent already wrote stays; the queue is stopped/);
    expect(r.stderr).toContain('Plan mode:');
    expect(r.stderr).toContain('Unknown command /nope');
    expect(calls('send_message')).toHaveLength(2);
    expect(calls('cancel_job')).toHaveLength(1);
  });

  it('a queue cap exits 7 at once, naming the cap; no credits exits 1 saying nothing ran, once', async () => {
    await chat(['Add every page you can think of #long', '--no-follow']);
    for (let i = 0; i < 8; i++) expect((await chat([`Queued change number ${i}`, '--no-follow'])).code).toBe(0);
    const ninth = await chat(['One change too many']);
    expect(ninth.code).toBe(7);
    expect(ninth.stderr).toMatch(
      rx()`8 messages waiting.*See the queue with: sitebuilder queue list site_bakery \(request ${'req'}`,
    );
    await knowLatestRun(emu, configDir, 'site_shop');
    const broke = await runCli(['chat', 'site_shop', 'Add an about page and a contact page'], { env, clock });
    expect(broke.code).toBe(1);
    expect(broke.stderr.match(/nothing ran/gi)).toHaveLength(1);
  });

  it('a failed run says its message once on a terminal', async () => {
    const r = await chat(['Rebuild the whole menu #fail'], { tty: true });
    expect(r.code).toBe(6);
    expect(r.stdout.match(/could not be compiled/gi)).toHaveLength(1);
    expect(r.stdout).toContain('✗ The agent could not finish: the page template could not be compiled.');
    expect(r.stdout).toMatch(/✗ Failed in (\d+m)?\d+s · 1 credit$/m);
  });

  it('/queue on an empty stopped queue says there is nothing to resume', async () => {
    await chat(['Add every page you can think of #long', '--no-follow']);
    expect((await runCli(['job', 'cancel', SITE], { env, clock })).code).toBe(0);
    const r = await chat([], { tty: true, prompter: new ScriptedPrompter(['/queue', '/exit']) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'No message waits in the queue; it stopped after a failed or cancelled run, with nothing to resume.',
    );
    expect(r.stderr).not.toContain('queue resume');
  });

  it('polls slower while the minute’s budget runs low, and never runs into a 429', async () => {
    const spend = () =>
      fetch(`${emu.baseUrl}/v1/list_workspaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
        body: '{}',
      });
    for (let i = 0; i < 226; i++) await spend();
    const before = clock.sleeps.length;
    const r = await chat(['Add an about page and a contact page', '--json']);
    expect(r.code).toBe(0);
    const sleeps = clock.sleeps.slice(before);
    // Normally the first waits are 1 to 4 s; with about 12 calls left they stretch over the minute.
    expect(Math.max(...sleeps.slice(0, 3))).toBeGreaterThan(4_000);
    expect(emu.control.log().filter((e) => e.status === 429)).toHaveLength(0);
  });

  it('agent text cannot drive the terminal', async () => {
    const r = await chat(['Add a banner saying \u001b]52;c;aGVsbG8=\u0007 hi \u001b[2J there'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b\]|\u0007|\u001b\[2J/);
    expect(r.stdout).toContain('hi');
  });

  it('refuses bad input before sending anything', async () => {
    for (const args of [
      ['hello', '--answer', 'x'],
      ['--approve', '--revise', 'x'],
      ['--job', 'j'],
      ['--answer', '  '],
    ]) {
      const r = await chat(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    const noTty = await chat([]);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('needs a terminal');
    expect(calls('send_message')).toHaveLength(0);
  });
});

describe('site create follows the first build', () => {
  it('prints the site id, then the run, with chat’s exit codes; --json is one stream', async () => {
    const r = await runCli(
      [
        'site',
        'create',
        '--workspace',
        'ws_demo',
        '--prompt',
        'A portfolio for a ceramic artist with a gallery and contact page',
      ],
      { env, clock },
    );
    expect(r.code).toBe(0);
    // Piped, the first line is tagged like the rest.
    expect(r.stdout.split('\n')[0]).toMatch(rx()`^site\t${'site'}\tws_demo$`);
    expect(r.stdout.split('\n')[1]).toMatch(rx()`^job\t${'site'}\t${'job'}$`);
    expect(r.stdout).toContain('file\t+\tgallery.html');
    expect(r.stdout).toMatch(/^end\tsucceeded\texit=0/m);
    const json = await runCli(
      ['site', 'create', '--workspace', 'ws_demo', '--prompt', 'A blog about sourdough with an about page', '--json'],
      { env, clock },
    );
    const lines = ndjson(json.stdout);
    expect(lines[0]).toMatchObject({
      type: 'site',
      jobId: expect.stringMatching(rx()`^${'job'}`),
      workspaceId: 'ws_demo',
    });
    expect(lines.filter((l) => l.type === 'end')).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({ type: 'end', state: 'succeeded', exitCode: 0 });
    const q = await runCli(['site', 'create', '--workspace', 'ws_demo', '--prompt', 'a site'], { env, clock });
    expect(q.code).toBe(10);
    expect(q.stderr).toMatch(rx()`sitebuilder chat ${'site'} --choose 1 --job ${'job'}`);
  });
});
