// What waits on a site, and so what a reply answers, from what no shape can mislead: get_job of a
// known run, what this CLI saw itself, and whether the history changed since, told by the
// fingerprints of its first page (src/commands/shared/run/latest-run.ts). A machine that has not seen
// the history since a run ended cannot tell: a terminal asks, a reply exits 2 naming --job or
// --yes, a new message exits 5. A reply printed long ago is refused once something happened since
// (a teammate's approval is never approved again). And across shapes, the same decisions.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { knownRuns, runsScope } from '../../../src/config/runs.js';
import { ConfigStore } from '../../../src/config/store.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { compareHistory, fingerprint, readHistoryPage } from '../../../src/service/messages.js';
import { tempConfigDir } from '../../helpers/run.js';
import { SHAPES } from '../../helpers/shapes.js';
import { chatEnv, ndjson, runCli, ScriptedPrompter, shellWords, siteChat } from './helpers.js';

const SITE = 'site_bakery';

// Units, and emulators of shapes named here: the same in either project, so run in the default
// one only (the alternate project would repeat them against the same answers).
const ONCE = SHAPES === 'alternate';

describe.skipIf(ONCE)('the history as a decision may use it: fingerprints, no field read', () => {
  it('fingerprints whole records, whatever their key order; an empty first page is no conversation', () => {
    expect(fingerprint({ a: 1, b: { c: [2] } })).toBe(fingerprint({ b: { c: [2] }, a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(readHistoryPage({ items: [], hasMore: false })).toEqual({ prints: [], empty: true });
    expect(readHistoryPage({ items: [], hasMore: true }).empty).toBe(false);
    // Records under a name no list key knows, and several lists: the whole data is the fingerprint.
    expect(readHistoryPage({ zz: [{ x: 1 }] }).prints).toEqual([fingerprint({ x: 1 })]);
    expect(readHistoryPage({ a: [1], b: [2] })).toEqual({ prints: [fingerprint({ a: [1], b: [2] })], empty: false });
  });

  // The sizes are the point, with a margin (objects and lists each a level; Node 22 and 24, the
  // default stack): JSON.stringify overflows by 4,500 levels, a plain recursive walk by 6,300,
  // the leanest one (a frame a level, optimized) by 14,000; push(...entries) throws past 124,887
  // items.
  it('fingerprints a record nested 30,000 levels whole, and a list of 200,000 records', () => {
    const deep = (leaf: unknown) => {
      let v: unknown = leaf;
      for (let i = 0; i < 15_000; i++) v = { a: [v] };
      return v;
    };
    // Two records built apart, the same all the way down: one print.
    const print = fingerprint(deep(1));
    expect(fingerprint(deep(1))).toBe(print);
    // Apart only at the bottom: told apart.
    expect(fingerprint(deep(2))).not.toBe(print);
    const long = Array.from({ length: 200_000 }, (_, i) => i);
    expect(fingerprint(long)).not.toBe(fingerprint([...long, 0]));
    // The same text as the records' JSON with sorted keys: what earlier versions kept still matches.
    expect(fingerprint({ b: [1, 'x', null], a: { d: true, c: 2 } })).toBe(
      createHash('sha256').update('{"a":{"c":2,"d":true},"b":[1,"x",null]}').digest('base64url').slice(0, 16),
    );
  });

  it('the same records are the same page; any record not seen then is something that happened since', () => {
    expect(compareHistory(['a', 'b'], ['b', 'a'])).toEqual({ same: true, unseen: 0 });
    expect(compareHistory(['a', 'b'], ['a', 'b', 'c'])).toEqual({ same: false, unseen: 1 });
    expect(compareHistory(['a', 'b'], ['a'])).toEqual({ same: false, unseen: 0 });
  });
});

describe('a machine that has seen nothing of the site', () => {
  const clock = new FakeClock();
  let emu: RunningEmulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clock });
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
      expect(r.stderr).toBe(
        `error: Cannot tell which run of site_bakery is the latest (no run of it was started or followed from here), so ${args[0]} sent nothing; name the run it answers with --job JOB (printed with the question or plan).\n`,
      );
      expect(methods()).toEqual(['list_messages']);
    }
  });

  it('a new message exits 5 naming --job and --yes; --yes sends it, saying so; then it knows', async () => {
    const r = await chat(['Add a team page please']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Cannot tell whether a question or plan waits on site_bakery');
    expect(r.stderr).toContain("Name the site's latest run with --job JOB, or add --yes to send the message anyway.");
    expect(methods()).toEqual(['list_messages']);
    const yes = await chat(['Add a team page please', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.stderr).toContain('Sending it anyway (--yes).');
    // Followed to its end here: the history as it then was is kept, and the next message goes
    // at once, one list_messages before it and no get_job (nothing waits on a run that succeeded).
    emu.control.clearLog();
    const next = await chat(['Then a footer please', '--no-follow']);
    expect(next.code).toBe(0);
    expect(methods()).toEqual(['list_messages', 'send_message']);
  });

  it('--job is the user’s word for the latest run: a run that left nothing waiting lets a message go', async () => {
    const { lastJobId } = await siteChat(emu, SITE);
    const r = await chat(['Add a team page please', '--job', lastJobId!, '--no-follow']);
    expect(r.code).toBe(0);
    expect(methods()).toEqual(['list_messages', 'get_job', 'send_message']);
  });

  it('a terminal asks: the run a reply answers, then whether its question still waits', async () => {
    const asker = { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
    const asked = ndjson(
      (await runCli(['chat', SITE, 'make it nice', '--yes', '--json'], { env: asker, clock })).stdout,
    );
    const jobId = asked.at(-1).jobId;
    emu.control.clearLog();
    const typed = new ScriptedPrompter([jobId, 'yes']);
    const r = await chat(['--choose', '2'], { tty: true, prompter: typed });
    expect(r.code).toBe(0);
    expect(r.prompts).toEqual([
      'The run --choose answers (its job id, printed with the question or plan)',
      `Send it as the reply to the question of run ${jobId}?`,
    ]);
    expect(emu.control.log({ method: 'get_job' })[0].args).toMatchObject({ jobId, cursor: 0 });
    expect(emu.control.log({ method: 'send_message' })[0].args).toMatchObject({ prompt: 'A portfolio' });
    emu.control.clearLog();
    env.SITEBUILDER_CONFIG_DIR = tempConfigDir();
    const esc = await chat(['--approve'], { tty: true, prompter: new ScriptedPrompter([null]) });
    expect(esc.code).toBe(130);
    expect(esc.stderr).toContain('No run named; --approve sent nothing.');
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
});

describe('a reply printed long ago is not sent once something happened since', () => {
  const clock = new FakeClock();
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clock });
  });
  afterAll(() => emu.close());
  beforeEach(() => emu.control.reset());

  /** Machine A asks for a plan (or a question) and keeps the printed commands; machine B is a teammate. */
  async function story(setup: string[]) {
    const a = chatEnv(emu);
    const b = chatEnv(emu);
    const first = await runCli(['chat', SITE, ...setup, '--yes'], { env: a, clock });
    const commands = [...first.stderr.matchAll(/^ {4}(sitebuilder chat .*--job \S+)$/gm)].map((m) => m[1]);
    return { a, b, code: first.code, commands };
  }
  const words = (command: string) =>
    shellWords(command)
      .slice(1)
      .map((w) => (w === '…' ? 'Also a price list' : w === 'N' ? '1' : w));
  const sends = () => emu.control.log({ method: 'send_message' }).length;

  it('a plan a teammate approved is not approved again from the printed command (nor revised)', async () => {
    const { a, b, code, commands } = await story(['--plan', 'Add a gallery page with photos']);
    expect(code).toBe(11);
    expect(commands).toHaveLength(2);
    // The teammate approves it from another machine (their --yes: they checked it still waits).
    expect((await runCli([...words(commands[0]), '--yes'], { env: b, clock })).code).toBe(0);
    const before = sends();
    for (const command of commands) {
      const r = await runCli(words(command), { env: a, clock });
      expect(r.code, command).toBe(2);
      expect(r.stderr).toMatch(
        /Cannot tell whether the plan of run \S+ still waits on site_bakery \(\d+ records? of its chat history .* not there when run \S+ ended: something happened since\), so --(approve|revise) sent nothing\./,
      );
    }
    // And a new message is not blocked by a plan said to wait: it cannot be told, so it is asked.
    const m = await runCli(['chat', SITE, 'Add a team page please'], { env: a, clock });
    expect(m.code).toBe(5);
    expect(m.stderr).not.toMatch(/plan from run \S+ waits/);
    expect(sends()).toBe(before);
  });

  it('a question a teammate answered is not answered again (--choose, --answer)', async () => {
    const { a, b, code, commands } = await story(['make it nice']);
    expect(code).toBe(10);
    expect((await runCli([...words(commands[1]), '--yes'], { env: b, clock })).code).toBe(0);
    const before = sends();
    for (const command of commands) expect((await runCli(words(command), { env: a, clock })).code, command).toBe(2);
    expect(sends()).toBe(before);
  });

  it('nothing happened since: the printed command answers, once', async () => {
    const { a, commands } = await story(['--plan', 'Add a gallery page with photos']);
    const r = await runCli([...words(commands[0]), '--no-follow'], { env: a, clock });
    expect(r.code).toBe(0);
    expect(emu.control.log({ method: 'send_message' }).at(-1)!.args).toEqual({
      projectId: SITE,
      prompt: 'Approve the plan and build it.',
    });
    // Its run started: the plan no longer waits, so the same command again is refused.
    const again = await runCli(words(commands[0]), { env: a, clock });
    expect(again.code).toBe(2);
  });
});

describe.skipIf(ONCE)('remembering runs and what was seen at their end', () => {
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
  const chat = (args: string[]) => runCli(['chat', SITE, ...args], { env, clock });
  const known = (site = SITE) =>
    knownRuns(new ConfigStore(env.SITEBUILDER_CONFIG_DIR), runsScope('default', emu.baseUrl), site);

  it('chat, --no-follow, job watch of a running run, site create, queue resume', async () => {
    const first = JSON.parse(
      (await chat(['Add every page you can think of #long', '--yes', '--no-follow', '--json'])).stdout,
    );
    expect(known()).toEqual([{ jobId: first.jobId, startedAt: clock.now(), mode: 'build' }]);
    // Known and running: the next message is checked against it (one get_job), and queued.
    const queued = JSON.parse((await chat(['Then a footer please', '--no-follow', '--json'])).stdout);
    expect(queued.queued).toBe(true);
    expect(known()[0]).toMatchObject({ jobId: queued.queueItemId, queued: true });
    await runCli(['job', 'cancel', SITE], { env, clock });
    // Another machine starts a run; watching it while it runs makes it known here, with its end seen.
    const other = { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
    const theirs = JSON.parse(
      (
        await runCli(['chat', 'site_docs', 'Add an about page please', '--yes', '--no-follow', '--json'], {
          env: other,
          clock,
        })
      ).stdout,
    ).jobId;
    await runCli(['job', 'watch', 'site_docs', theirs], { env, clock });
    expect(known('site_docs')).toEqual([
      expect.objectContaining({ jobId: theirs, seen: expect.objectContaining({ outcome: 'succeeded' }) }),
    ]);
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
    expect(known(created.site._id)).toEqual([
      expect.objectContaining({ jobId: created.jobId, seen: expect.objectContaining({ prints: expect.any(Array) }) }),
    ]);
  });

  it('a message queued from here behind a run that has since ended leaves the latest run unknown', async () => {
    await chat(['Add opening hours to the home page', '--yes', '--no-follow']);
    expect((await chat(['Then a footer please', '--no-follow'])).code).toBe(0);
    clock.advance(120_000);
    const r = await chat(['And a header please']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /a message sent from here was queued \(\S+\) behind run \S+, which has ended, so it may have started a run since/,
    );
  });
});

describe.skipIf(ONCE)('the runs file cannot be used: a warning, and the command goes on', () => {
  it('a shared configuration directory is refused for runs.json; chat still asks, never guesses', async () => {
    const clock = new FakeClock();
    const emu = await startEmulator({ port: 0, clock, shapes: 'default' });
    try {
      const dir = join(mkdtempSync(join(tmpdir(), 'sitebuilder-shared-')), 'config');
      mkdirSync(dir);
      writeFileSync(join(dir, 'runs.json'), '{"version":2,"scopes":{}}\n');
      chmodSync(dir, 0o1777);
      const env = {
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_CONFIG_DIR: dir,
      };
      const r = await runCli(['chat', SITE, 'Add a gallery page please', '--no-follow', '--yes'], { env, clock });
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

describe.skipIf(ONCE)('the alternate shapes decide exactly as the default shapes', () => {
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
          // No field of the history decides: the same exit and the same writes, whoever asks.
          expect(alt.code, what).toBe(d.code);
          expect(alt.writes, what).toEqual(d.writes);
          // Where nothing is sent, the sentence says how to go on.
          if (d.writes.length === 0 && d.code !== 0)
            expect(d.stderr, what).toMatch(/--job|--yes|--approve|--answer|--plan|chat site_bakery/);
          sentSomewhere += d.writes.length;
        }
      }
      expect(sentSomewhere).toBeGreaterThan(0);
    }, 60_000);
  }
});
