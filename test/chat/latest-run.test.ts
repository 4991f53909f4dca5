// Which run of a site is the latest, and so what a reply answers: from the run --job names, the
// runs this CLI started or followed, and history records with a job id and a time; never from a
// position in a page. A machine that knows no run, against a history that names none (an
// emulator in the alternate shapes, started here whatever the project), cannot tell: a terminal
// asks, a reply flag exits 2 naming --job, a new message exits 5. And the comparison the issue
// asks for: against the alternate shapes, no reply, write or destructive call is sent that would
// not be sent against the default shapes.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { chooseLatest } from '../../src/commands/chat/latest-run.js';
import { historyRuns, newestFirst, timeOf } from '../../src/commands/message/history.js';
import { knownRuns } from '../../src/config/runs.js';
import { ConfigStore } from '../../src/config/store.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { tempConfigDir } from '../helpers/run.js';
import { SHAPES } from '../helpers/shapes.js';
import { chatEnv, ndjson, runCli, ScriptedPrompter, siteChat } from './helpers.js';

const SITE = 'site_bakery';

describe('reading the history and choosing the latest run', () => {
  it('reads times in the usual forms, and orders only records that all show one', () => {
    expect(timeOf('2026-11-22T12:00:00.000Z')).toBe(Date.UTC(2026, 10, 22, 12));
    expect(timeOf(1_795_000_000_000)).toBe(1_795_000_000_000);
    expect(timeOf(1_795_000_000)).toBe(1_795_000_000_000);
    expect(timeOf('1795000000000')).toBe(1_795_000_000_000);
    expect(timeOf('yesterday')).toBeUndefined();
    expect(timeOf(null)).toBeUndefined();
    const a = { _id: 'a', createdAt: '2026-01-01T00:00:01Z' };
    const b = { _id: 'b', createdAt: 1_767_225_602_000 };
    expect(newestFirst([a, b])).toEqual([b, a]);
    expect(newestFirst([a, { _id: 'c' }])).toBeUndefined();
  });

  it('takes a run from the history only where a record carries a job id and a time', () => {
    const runs = historyRuns([
      { jobId: 'job_1', createdAt: '2026-01-01T00:00:01Z' },
      { jobId: 'job_2' },
      { createdAt: '2026-01-01T00:00:09Z' },
      { job: { _id: 'job_3' }, time: '2026-01-01T00:00:05Z' },
      { jobId: 'job_1', createdAt: '2026-01-01T00:00:03Z' },
    ]);
    expect(runs.map((r) => r.jobId)).toEqual(['job_3', 'job_1']);
  });

  it('history by time first, then the runs known here; --job is believed unless a source puts a newer run after it', () => {
    const h = (jobId: string, at: number) => ({ jobId, at });
    const k = (jobId: string, startedAt: number, queued?: true) => ({ jobId, startedAt, ...(queued && { queued }) });
    expect(chooseLatest({ history: [h('j2', 20), h('j1', 10)], known: [k('j1', 5)] })).toEqual({
      jobId: 'j2',
      source: 'history',
    });
    expect(chooseLatest({ history: [h('j2', 20), h('j1', 10)], known: [] }, 'j1')).toEqual({
      notLatest: 'j1',
      latest: 'j2',
      by: 'history',
    });
    expect(chooseLatest({ history: [h('j2', 20), h('j3', 20)], known: [] })).toHaveProperty('unknown');
    expect(chooseLatest({ history: [], known: [k('j9', 9), k('j1', 1)] })).toEqual({ jobId: 'j9', source: 'known' });
    expect(chooseLatest({ history: [], known: [k('j9', 9), k('j1', 1)] }, 'j1')).toMatchObject({ notLatest: 'j1' });
    expect(chooseLatest({ history: [], known: [k('j9', 9)] }, 'elsewhere')).toEqual({
      jobId: 'elsewhere',
      source: 'job',
    });
    expect(chooseLatest({ history: [], known: [k('q1', 12, true), k('j9', 9)] })).toEqual({
      jobId: 'j9',
      source: 'known',
      queuedSince: 'q1',
    });
    expect(chooseLatest({ history: [], known: [k('q1', 12, true)] })).toHaveProperty('unknown');
    expect(chooseLatest({ history: [], known: [] })).toHaveProperty('unknown');
    expect(chooseLatest({ history: [], noHistory: true, known: [] })).toEqual({ none: true });
  });
});

describe('a history that names no run, a machine that knows none', () => {
  const clock = new FakeClock();
  let emu: RunningEmulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clock, shapes: 'alternate' });
  });
  afterAll(() => emu.close());
  beforeEach(() => {
    emu.control.reset();
    env = chatEnv(emu);
  });
  const chat = (args: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) =>
    runCli(['chat', SITE, ...args], { env, clock, ...o });
  const methods = () => emu.control.log().map((e) => e.method);

  it('a reply flag exits 2 with one sentence naming --job; nothing is sent', async () => {
    for (const args of [['--approve'], ['--revise', 'also prices'], ['--answer', 'A blog'], ['--choose', '1']]) {
      emu.control.clearLog();
      const r = await chat(args);
      expect(r.code, args[0]).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: Cannot tell which run of site_bakery is the latest \\(no run of it is known here, and its history names none with a time\\), so ${args[0]} sent nothing; name the run it answers with --job JOB \\(printed with the question or plan\\)\\.\\n$`,
        ),
      );
      expect(methods()).toEqual(['list_messages']);
    }
  });

  it('a new message exits 5 naming --job and --yes; --yes sends it, saying so', async () => {
    const r = await chat(['Add a team page please']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Cannot tell whether a question or plan waits on site_bakery');
    expect(r.stderr).toContain("Name the site's latest run with --job JOB, or add --yes to send the message anyway.");
    expect(methods()).toEqual(['list_messages']);
    const yes = await chat(['Add a team page please', '--yes', '--no-follow']);
    expect(yes.code).toBe(0);
    expect(yes.stderr).toContain('Sending it anyway (--yes).');
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(1);
  });

  it('a terminal asks: the run a reply answers (checked with get_job), or whether to send a new message', async () => {
    const asker = { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
    const asked = ndjson(
      (await runCli(['chat', SITE, 'make it nice', '--yes', '--json'], { env: asker, clock })).stdout,
    );
    const jobId = asked.at(-1).jobId;
    emu.control.clearLog();
    const typed = new ScriptedPrompter([jobId]);
    const r = await chat(['--choose', '2'], { tty: true, prompter: typed });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual(['The run --choose answers (its job id, printed with the question or plan)']);
    expect(emu.control.log({ method: 'get_job' })[0].args).toMatchObject({ jobId, cursor: 0 });
    expect(emu.control.log({ method: 'send_message' })[0].args).toMatchObject({ prompt: 'A portfolio' });
    emu.control.clearLog();
    // This machine now knows the run its answer started; another one knows none.
    env.SITEBUILDER_CONFIG_DIR = tempConfigDir();
    const esc = await chat(['--approve'], { tty: true, prompter: new ScriptedPrompter([null]) });
    expect(esc.code).toBe(130);
    expect(esc.stderr).toContain('No run named; --approve sent nothing.');
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(0);
    // This machine knows no run here either (a fresh config dir): the new message is confirmed.
    env.SITEBUILDER_CONFIG_DIR = tempConfigDir();
    const no = await chat(['Add a team page'], { tty: true, prompter: new ScriptedPrompter(['no']) });
    expect(no.code).toBe(130);
    expect(no.prompts).toEqual(['Send your message?']);
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(0);
  });

  it('a conversation says it cannot tell, and confirms the first message only', async () => {
    const prompter = new ScriptedPrompter(['Add a gallery page please', 'yes', 'Then a team page please', '/exit']);
    const r = await chat([], { tty: true, prompter });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('your first message is taken as the reply to it');
    expect(r.prompts).toEqual(['You', 'Send it?', 'You', 'You']);
    expect(emu.control.log({ method: 'send_message' }).map((e) => (e.args as any).prompt)).toEqual([
      'Add a gallery page please',
      'Then a team page please',
    ]);
  });

  it('the command printed on one machine answers from another: --job names the run', async () => {
    const a = { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
    const asked = await runCli(['chat', SITE, 'make it nice', '--yes'], { env: a, clock });
    expect(asked.code).toBe(10);
    const command = /sitebuilder chat site_bakery --choose 3 --job (\S+)/.exec(asked.stderr)!;
    const r = await chat(['--choose', '3', '--job', command[1]]);
    expect(r.code).toBe(0);
    expect(emu.control.log({ method: 'send_message' }).at(-1)!.args).toMatchObject({ prompt: 'A blog' });
  });

  it('remembers the runs it starts or follows: chat, --no-follow, job watch of a running run, site create, queue resume', async () => {
    const dir = env.SITEBUILDER_CONFIG_DIR;
    const known = (site = SITE) => knownRuns(new ConfigStore(dir), 'default', site);
    const first = JSON.parse(
      (await chat(['Add every page you can think of #long', '--yes', '--no-follow', '--json'])).stdout,
    );
    expect(known()).toEqual([{ jobId: first.jobId, startedAt: clock.now(), mode: 'build' }]);
    // Known now: the next message is checked against it (running), and queued.
    const queued = JSON.parse((await chat(['Then a footer please', '--no-follow', '--json'])).stdout);
    expect(queued.queued).toBe(true);
    expect(known()[0]).toMatchObject({ jobId: queued.queueItemId, queued: true });
    // Another machine starts a run; watching it while it runs makes it known here.
    await runCli(['job', 'cancel', SITE], { env, clock });
    const other = { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
    const theirs = JSON.parse(
      (
        await runCli(['chat', 'site_docs', 'Add every page you can think of #long', '--yes', '--no-follow', '--json'], {
          env: other,
          clock,
        })
      ).stdout,
    ).jobId;
    await runCli(['job', 'watch', 'site_docs', theirs, '--timeout', '5s'], { env, clock });
    expect(known('site_docs').map((r) => r.jobId)).toEqual([theirs]);
    const resumed = await runCli(['queue', 'resume', SITE], { env, clock });
    expect(known()[0].jobId).toBe(resumed.stdout.trim());
    const created = ndjson(
      (
        await runCli(
          ['site', 'create', '--workspace', 'ws_demo', '--prompt', 'A blog about bread with a contact page', '--json'],
          { env, clock },
        )
      ).stdout,
    )[0];
    expect(known(created.site._id).map((r) => r.jobId)).toEqual([created.jobId]);
  });

  it('a message queued from here behind a run that has since ended leaves the latest run unknown', async () => {
    const first = JSON.parse(
      (await chat(['Add opening hours to the home page', '--yes', '--no-follow', '--json'])).stdout,
    );
    expect((await chat(['Then a footer please', '--no-follow'])).code).toBe(0);
    clock.advance(120_000);
    expect((await siteChat(emu, SITE)).lastJobId).not.toBe(first.jobId);
    const r = await chat(['And a header please']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /a message sent from here was queued \(\S+\) behind run \S+, which has ended, so it may have started a run since/,
    );
  });
});

describe('the runs file cannot be used: a warning, and the command goes on', () => {
  it('a shared configuration directory is refused for runs.json; chat still works from the history', async () => {
    const clock = new FakeClock();
    const emu = await startEmulator({ port: 0, clock, shapes: 'default' });
    try {
      const dir = join(mkdtempSync(join(tmpdir(), 'sitebuilder-shared-')), 'config');
      mkdirSync(dir);
      writeFileSync(join(dir, 'runs.json'), '{"version":1,"profiles":{}}\n');
      chmodSync(dir, 0o1777);
      const env = {
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_CONFIG_DIR: dir,
      };
      const r = await runCli(['chat', SITE, 'Add a gallery page please', '--no-follow'], { env, clock });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /^warning: Could not read the runs started from here \(.*can be written by other users/m,
      );
      expect(r.stderr).toMatch(
        /^warning: Could not remember run \S+ for later replies .*a reply to it needs --job\.$/m,
      );
      expect(emu.control.log({ method: 'send_message' })).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });
});

/** The write calls of the log since `since`: what was sent that changes something or answers the agent. */
const WRITES = new Set(['send_message', 'cancel_job', 'remove_queued_message', 'resume_queue', 'edit_queued_message']);

describe.skipIf(SHAPES === 'alternate')(
  'the alternate shapes send no reply or write the default shapes would not',
  () => {
    const clock = new FakeClock();
    const emus: Record<'default' | 'alternate', RunningEmulator> = {} as never;
    beforeAll(async () => {
      emus.default = await startEmulator({ port: 0, clock, shapes: 'default' });
      emus.alternate = await startEmulator({ port: 0, clock, shapes: 'alternate' });
    });
    afterAll(() => Promise.all(Object.values(emus).map((e) => e.close())));

    const SETUPS: Record<string, string[]> = {
      'nothing waits': ['Add an about page and a contact page'],
      'a question waits': ['make it nice'],
      'a plan waits': ['--plan', 'Add a gallery page with photos'],
      'a run goes on': ['Add every page you can think of #long', '--no-follow'],
    };
    const REPLIES = [
      ['--approve'],
      ['--revise', 'also add prices'],
      ['--answer', 'A blog'],
      ['--choose', '1'],
      ['Add a team page please'],
    ];

    /** One story in one shape: the setup on machine A, then the reply on machine `who`. */
    async function story(
      shapes: 'default' | 'alternate',
      setup: string[],
      reply: string[],
      who: 'same' | 'other' | 'other --job',
    ) {
      const emu = emus[shapes];
      emu.control.reset();
      const base = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full, NO_COLOR: '1' };
      const a = { ...base, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
      // Machine A starts the setup's run; --yes: in the alternate shapes it knows no earlier run.
      const started = await runCli(['chat', SITE, ...setup, '--yes', '--json'], { env: a, clock });
      const jobId = (
        started.stdout.trim().startsWith('{"type"') ? ndjson(started.stdout).at(-1) : JSON.parse(started.stdout)
      ).jobId;
      const since = emu.control.log().at(-1)?.seq ?? 0;
      const env = who === 'same' ? a : { ...base, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
      const args = who === 'other --job' ? [...reply, '--job', jobId] : reply;
      const r = await runCli(['chat', SITE, ...args, '--no-follow'], { env, clock });
      clock.advance(300_000);
      const writes = emu.control
        .log({ since })
        .filter((e) => e.method && WRITES.has(e.method))
        .map((e) => ({ method: e.method, prompt: (e.args as any)?.prompt, mode: (e.args as any)?.mode ?? 'build' }));
      return { code: r.code, writes, stderr: r.stderr };
    }

    for (const [name, setup] of Object.entries(SETUPS)) {
      it(`${name}: every reply, from the machine that started the run, from another, and from another with --job`, async () => {
        let sentSomewhere = 0;
        for (const reply of REPLIES) {
          for (const who of ['same', 'other', 'other --job'] as const) {
            const d = await story('default', setup, reply, who);
            const alt = await story('alternate', setup, reply, who);
            const what = `${reply.join(' ')} (${who})`;
            // Whatever the alternate sends, the default sends too.
            for (const w of alt.writes) expect(d.writes, what).toContainEqual(w);
            if (who === 'other') {
              // Another machine, a history without job ids: it cannot tell, and says how to go on.
              if (alt.writes.length === 0 && d.writes.length > 0) expect(alt.stderr, what).toMatch(/--job/);
            } else {
              // Knowing the run (here, or by --job), both shapes decide alike.
              expect(alt.code, what).toBe(d.code);
              expect(alt.writes, what).toEqual(d.writes);
            }
            sentSomewhere += d.writes.length;
          }
        }
        expect(sentSomewhere).toBeGreaterThan(0);
      }, 30_000);
    }
  },
);
