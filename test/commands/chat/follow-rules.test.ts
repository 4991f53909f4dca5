// The rules a followed run keeps, judged on the emulator's request log (in the shapes of the
// test project): every follow-up command the CLI prints works as printed; no two polls of a run
// under 2 s apart; cancel_job carries only the arguments the service shows and every refusal is
// shown; destructive queue and job commands confirm; bad input costs no request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POLL_TIMING } from '../../../src/api/poller.js';
import { FakeClock } from '../../../src/clock.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { Interrupts } from '../../../src/interrupts.js';
import { tempConfigDir } from '../../helpers/run.js';
import { rx, SHAPES } from '../../helpers/shapes.js';
import { cancellingOn, chatEnv, knowLatestRun, ndjson, runCli, ScriptedPrompter, shellWords } from './helpers.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;
/** The site's latest run, known here as seen to its end (knowLatestRun). */
let latest: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
});
afterAll(() => emu.close());
beforeEach(async () => {
  emu.control.reset();
  env = chatEnv(emu);
  latest = await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, SITE);
});

const cli = (argv: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) => runCli(argv, { env, clock, ...o });
const chat = (args: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) => cli(['chat', SITE, ...args], o);
const calls = (method: string) => emu.control.log({ method });

/** Runs a command exactly as printed, its placeholders filled in: N with a number, '…' with text. */
async function runPrinted(
  command: string,
  fill: { n?: string; text?: string } = {},
  o: Partial<Parameters<typeof runCli>[1]> = {},
) {
  const words = shellWords(command.trim());
  expect(words[0]).toBe('sitebuilder');
  const argv = words
    .slice(1)
    .map((w) => (w === 'N' ? (fill.n ?? '1') : w === '…' ? (fill.text ?? 'As you see fit') : w));
  return cli(argv, o);
}
const printed = (text: string, re: RegExp): string => {
  const m = re.exec(text);
  if (!m) throw new Error(`No ${re} in:\n${text}`);
  return m[1];
};

describe('every follow-up command the CLI prints works as printed', () => {
  it('a question: --choose 2 --job beside its option and --answer --job, from this machine and from another', async () => {
    const q = await chat(['make it nice']);
    expect(q.code).toBe(10);
    // Each suggested answer, then the command that picks it: whole, nothing to fill in.
    expect(q.stderr).toMatch(/^ {2}2\. A portfolio\n {4}sitebuilder chat site_bakery --choose 2 --job \S+$/m);
    const choose = printed(q.stderr, /^ {4}(sitebuilder chat site_bakery --choose 2 --job \S+)$/m);
    const answer = printed(q.stderr, /^ {4}(sitebuilder chat site_bakery --answer '…' --job \S+)$/m);
    // Pasted as printed, the one to fill in sends nothing: exit 2, naming what goes in place of …
    const before = emu.control.log().length;
    const unfilled = await runPrinted(answer, { text: '…' });
    expect(unfilled.code).toBe(2);
    expect(unfilled.stderr).toContain(
      '"…" in --answer is a placeholder from a printed command: put your answer in its place.',
    );
    expect(emu.control.log()).toHaveLength(before);
    expect((await runPrinted(choose)).code).toBe(0);
    expect(calls('send_message').at(-1)!.args).toMatchObject({ prompt: 'A portfolio' });
    // The --answer command now names a run that is no longer the latest: refused, nothing sent.
    const stale = await runPrinted(answer);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toMatch(
      /is not the latest run of site_bakery .* --answer sent nothing\. See how the latest run ended with: (sitebuilder job watch site_bakery \S+)$/m,
    );
    expect((await runPrinted(printed(stale.stderr, /(sitebuilder job watch site_bakery \S+)$/m))).code).toBe(0);
    const q2 = await chat(['make it pop']);
    const answer2 = printed(q2.stderr, /^ {4}(sitebuilder chat site_bakery --answer '…' --job \S+)$/m);
    // Pasted on another machine, which has not seen the history since the question: it cannot
    // tell whether someone answered it meanwhile, so it sends nothing and says how to go on.
    const elsewhere = { ...env, SITEBUILDER_CONFIG_DIR: tempConfigDir() };
    const sends = calls('send_message').length;
    const there = await runPrinted(answer2, { text: 'A site for our bakery' }, { env: elsewhere });
    expect(there.code).toBe(2);
    expect(there.stderr).toMatch(/still waits on site_bakery .* --answer sent nothing\..* add --yes\.$/m);
    expect(calls('send_message')).toHaveLength(sends);
    const yes = await runPrinted(`${answer2} --yes`, { text: 'A site for our bakery' }, { env: elsewhere });
    expect(yes.code).toBe(0);
    expect(calls('send_message').at(-1)!.args).toMatchObject({ prompt: 'A site for our bakery' });
  });

  it('a plan: --approve --job and --revise --job; the refusal of a new message names both', async () => {
    const p = await chat(['--plan', 'Add a gallery page with photos of our bread']);
    expect(p.code).toBe(11);
    const revise = printed(p.stderr, /^ {4}(sitebuilder chat site_bakery --revise '…' --job \S+)$/m);
    const revised = await runPrinted(revise, { text: 'Also add a pricing page' });
    expect(revised.code).toBe(11);
    const refused = await chat(['Add a team page']);
    expect(refused.code).toBe(11);
    const approve = printed(refused.stderr, /approve it with `(sitebuilder chat site_bakery --approve --job [^`]+)`,/);
    const built = await runPrinted(approve);
    expect(built.code).toBe(0);
    expect(built.stdout).toContain('file\t+\tpricing.html');
  });

  it('re-attach after --timeout, follow after --no-follow, resume after a cancel', async () => {
    const t = await chat(['Add every page you can think of #long', '--timeout', '10s']);
    expect(t.code).toBe(8);
    const watched = await runPrinted(printed(t.stderr, /Re-attach with: (.+)$/m));
    expect(watched.code).toBe(0);
    const n = await chat(['Add every page you can think of #long', '--no-follow']);
    const follow = printed(n.stderr, /Follow it with: (.+)$/m);
    await chat(['Then a footer please', '--no-follow']);
    const cancel = await cli(['job', 'cancel', SITE]);
    expect(cancel.code).toBe(0);
    const resume = await runPrinted(printed(cancel.stderr, /run with: (sitebuilder queue resume .+)$/m));
    expect(resume.code).toBe(0);
    // The run it names was cancelled (by someone else, as job watch sees it): exit 1, said so.
    const first = await runPrinted(follow);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^end\tcancelled\texit=1/m);
    expect((await runPrinted(printed(resume.stderr, /Follow it with: (.+)$/m))).code).toBe(0);
  });
});

/** The gaps between the get_job calls of one run in the request log, in ms of emulated time. */
function pollGaps(jobId: string): number[] {
  const times = emu.control
    .log({ method: 'get_job' })
    .filter((e) => (e.args as any)?.jobId === jobId)
    .map((e) => Date.parse(e.time));
  return times.slice(1).map((t, i) => t - times[i]);
}

describe('the polling rule: no two polls of a run under 2 s apart', () => {
  it('a followed busy run: every 3 s while events come, slower while none do, never under 2 s', async () => {
    const dense = await chat([
      'Add an about page, a contact page, a gallery page, a pricing page and a faq page',
      '--json',
    ]);
    expect(dense.code).toBe(0);
    const busy = pollGaps(ndjson(dense.stdout)[0].jobId);
    expect(busy.length).toBeGreaterThan(4);
    expect(busy.slice(0, -1).every((g) => g === POLL_TIMING.busyMs)).toBe(true);
    const long = await chat(['Add every page you can think of #long', '--json']);
    expect(long.code).toBe(0);
    const gaps = pollGaps(ndjson(long.stdout)[0].jobId);
    expect(gaps.length).toBeGreaterThan(20);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(POLL_TIMING.idleMs);
  });

  it('on a terminal too, while the text plays back between polls', async () => {
    const r = await chat(['Add an about page, a contact page, a gallery page and a faq page'], { tty: true });
    expect(r.code).toBe(0);
    const jobId = calls('send_message').length && (emu.control.log({ method: 'get_job' }).at(-1)!.args as any).jobId;
    expect(Math.min(...pollGaps(jobId))).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
    expect(r.stdout).toContain('Done');
  });

  it('right after a cancel (Esc, y), and when attaching with job watch', async () => {
    const interrupts = new Interrupts();
    const c = await chat(['Add every page you can think of #long', '--json'], {
      interrupts,
      clock: cancellingOn(clock, interrupts, [3]),
    });
    expect(c.code).toBe(130);
    const jobId = ndjson(c.stdout)[0].jobId;
    expect(Math.min(...pollGaps(jobId))).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
    emu.control.reset();
    env.SITEBUILDER_CONFIG_DIR = tempConfigDir();
    await knowLatestRun(emu, env.SITEBUILDER_CONFIG_DIR, SITE);
    const n = await chat(['Add every page you can think of #long', '--no-follow']);
    const w = await cli(['job', 'watch', SITE, n.stdout.trim(), '--timeout', '60s']);
    expect(w.code).toBe(8);
    const gaps = pollGaps(n.stdout.trim());
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
    expect(gaps.length + 1).toBeLessThanOrEqual(21);
  });

  it('a get_job the transport retries (a 500, a dropped answer) waits out the floor too', async () => {
    // Before the message: the read of the run --job names, answered 500 twice, then read.
    emu.control.addFault({ method: 'get_job', status: 500, times: 2 });
    const n = await chat(['Add an about page and a contact page', '--job', latest, '--no-follow']);
    expect(n.code).toBe(0);
    // Following it: a poll dropped, then a 500, then read.
    emu.control.addFault({ method: 'get_job', drop: true, when: 'before' });
    emu.control.addFault({ method: 'get_job', status: 500 });
    const w = await cli(['job', 'watch', SITE, n.stdout.trim()]);
    expect(w.code).toBe(0);
    const log = emu.control.log({ method: 'get_job' });
    const runs = new Set(log.map((e) => (e.args as any).jobId as string));
    expect(runs.size).toBe(2);
    expect(new Set(log.filter((e) => e.fault).map((e) => (e.args as any).jobId)).size).toBe(2);
    for (const jobId of runs) expect(Math.min(...pollGaps(jobId)), jobId).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
  });

  it('publish status is polled under the same floor', async () => {
    const r = await cli(['publish', SITE, '--json']);
    expect(r.code).toBe(0);
    const times = calls('get_publish_status').map((e) => Date.parse(e.time));
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(times.length).toBeGreaterThan(1);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(POLL_TIMING.floorMs);
  });
});

describe('cancel_job: only the arguments the service shows, and every refusal shown', () => {
  it('Esc, y sends {projectId} alone; the run cancelled, exit 130', async () => {
    const interrupts = new Interrupts();
    const r = await chat(['Add every page you can think of #long'], {
      interrupts,
      clock: cancellingOn(clock, interrupts, [3]),
    });
    expect(r.code).toBe(130);
    expect(calls('cancel_job').map((e) => e.args)).toEqual([{ projectId: SITE }]);
    expect(r.stdout).toMatch(/^note\tCancel sent; following the run until it stops/m);
  });

  it('a refused cancel is said, with what to do next; the run goes on to its end', async () => {
    emu.control.addFault({
      method: 'cancel_job',
      status: 403,
      message: 'This token lacks the chat:write scope.',
    });
    const interrupts = new Interrupts();
    const r = await chat(['Add an about page and a contact page', '--json'], {
      interrupts,
      clock: cancellingOn(clock, interrupts, [2]),
    });
    expect(r.code).toBe(0);
    const lines = ndjson(r.stdout);
    const cancel = lines.find((l) => l.type === 'cancel');
    expect(cancel).toMatchObject({ ok: false });
    // `job cancel` would be refused the same way (it sends what this cancel sent): not offered.
    expect(cancel.message).toMatch(
      /^The cancel was refused, so the run goes on: .*chat:write.* Ctrl-C stops following\.$/,
    );
    expect(cancel.message).not.toContain('try again');
    expect(lines.at(-1)).toMatchObject({ type: 'end', state: 'succeeded' });
    // Piped: a note line in the transcript, never a bare "Cancelling…".
    emu.control.addFault({ method: 'cancel_job', status: 403, message: 'This token lacks the chat:write scope.' });
    const i2 = new Interrupts();
    const plain = await chat(['Add an about page and a contact page'], {
      interrupts: i2,
      clock: cancellingOn(clock, i2, [2]),
    });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^note\tThe cancel was refused, so the run goes on: .*chat:write/m);
    expect(plain.stdout).toMatch(/^end\tsucceeded\texit=0/m);
    // A failure of the service may pass on a retry: the command that tries again is offered.
    emu.control.addFault({ method: 'cancel_job', status: 503, times: 20 });
    const i4 = new Interrupts();
    const flaky = await chat(['Add an about page and a contact page', '--json'], {
      interrupts: i4,
      clock: cancellingOn(clock, i4, [2]),
    });
    expect(ndjson(flaky.stdout).find((l) => l.type === 'cancel').message).toMatch(
      /Ctrl-C stops following; try again with: sitebuilder job cancel site_bakery$/,
    );
    emu.control.clearFaults();
    // Refused, then Ctrl-C: no longer followed, a run that surely goes on.
    emu.control.addFault({ method: 'cancel_job', status: 403, message: 'This token lacks the chat:write scope.' });
    const i3 = new Interrupts();
    const gone = await chat(['Add every page you can think of #long'], {
      interrupts: i3,
      clock: cancellingOn(clock, i3, [2], [3]),
    });
    expect(gone.code).toBe(130);
    expect(gone.stderr).toMatch(
      /^Stopped following; the run goes on\. Re-attach with: sitebuilder job watch site_bakery \S+$/m,
    );
  });

  it('job cancel: {projectId}; --job is checked with get_job first; --clear-session confirms (exit 5, nothing sent)', async () => {
    const started = (await chat(['Add every page you can think of #long', '--no-follow'])).stdout.trim();
    const old = await cli(['job', 'cancel', SITE, '--job', 'not-this-one']);
    expect(old.code).toBe(1);
    expect(calls('cancel_job')).toHaveLength(0);
    const noYes = await cli(['job', 'cancel', SITE, '--clear-session']);
    expect(noYes.code).toBe(5);
    expect(noYes.stderr).toContain("Clear the agent's conversation on site_bakery needs confirmation");
    expect(calls('cancel_job')).toHaveLength(0);
    const declined = await cli(['job', 'cancel', SITE, '--clear-session'], {
      tty: true,
      prompter: new ScriptedPrompter(['no']),
    });
    expect(declined.code).toBe(130);
    expect(calls('cancel_job')).toHaveLength(0);
    const r = await cli(['job', 'cancel', SITE, '--job', started]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${started}\tcancelled\n`);
    expect(calls('cancel_job').map((e) => e.args)).toEqual([{ projectId: SITE }]);
    const ended = await cli(['job', 'cancel', SITE, '--job', started]);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain(`Run ${started} is not going on (it was cancelled already); nothing was cancelled.`);
    const clear = await cli(['job', 'cancel', SITE, '--clear-session', '--yes']);
    expect(clear.code).toBe(0);
    expect(calls('cancel_job').map((e) => e.args)).toEqual([
      { projectId: SITE },
      { projectId: SITE, clearSession: true },
    ]);
  });

  it('queue remove confirms on a terminal; declined, nothing is sent', async () => {
    await chat(['Add every page you can think of #long', '--no-follow']);
    const id = JSON.parse((await chat(['Then a footer please', '--no-follow', '--json'])).stdout).queueItemId;
    const no = await cli(['queue', 'remove', SITE, id], { tty: true, prompter: new ScriptedPrompter(['no']) });
    expect(no.code).toBe(130);
    expect(calls('remove_queued_message')).toHaveLength(0);
    const yes = await cli(['queue', 'remove', SITE, id], { tty: true, prompter: new ScriptedPrompter(['yes']) });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toContain(`Removed ${id}; it will not run. 0 messages still wait.`);
  });
});

// A refusal before the first request meets no answer, so no shape: run in the default project only.
describe.skipIf(SHAPES === 'alternate')('bad input costs nothing: every local check before the first request', () => {
  it('a 500,001-character prompt, a 256-character key, a bad --job: exit 2, no request at all', async () => {
    const long = 'x'.repeat(500_001);
    const file = join(tempConfigDir(), '..', 'long.txt');
    writeFileSync(file, long);
    emu.control.clearLog();
    for (const args of [
      [long],
      ['-F', file],
      ['--answer', long],
      ['--revise', long],
      ['Add a page please', '--idempotency-key', 'k'.repeat(256)],
      ['Add a page please', '--idempotency-key', 'has space'],
      ['--approve', '--job', 'job 1'],
      ['--approve', '--job', ''],
      ['--job', 'job_1'],
    ]) {
      const r = await chat(args);
      expect(r.code, args.map((a) => a.slice(0, 30)).join(' ')).toBe(2);
      expect(r.stderr).toMatch(/nothing was sent|Nothing was sent|--job goes with/);
    }
    expect(emu.control.log()).toEqual([]);
  });
});

describe('message list in the service’s shapes', () => {
  it('newest first by time; a JOB column it cannot fill is said, not left silently empty', async () => {
    for (let i = 0; i < 2; i++) await chat([`Change number ${i} to the home page`]);
    const r = await cli(['message', 'list', SITE, '--limit', '6']);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(6);
    const times = rows.map((row) => Date.parse(row[0]));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    if (rows.some((row) => row[2] === '')) {
      expect(rows.every((row) => row[2] === '')).toBe(true);
      expect(r.stderr).toContain('The history’s records name no run (no job id), so the JOB column is empty.');
    } else expect(rows.every((row) => rx()`^${'job'}$`.test(row[2]))).toBe(true);
  });
});
