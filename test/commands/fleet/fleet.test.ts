// publish and chat over many sites (docs/scripting.md "Many sites at once"), in-process against a
// real emulator on port 0. CLI and emulator share a ScaledClock (emulated time 100 times faster
// than the wall clock, the same for every site under way), so a batch's polls and the budget's
// minute pass quickly; the tests assert what happened (outputs, exit codes, the request log),
// never how long it took.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import type { SiteOutcome } from '../../../src/emulator/state.js';
import { ScriptedPrompter } from '../chat/helpers.js';
import { send } from '../../emulator/helpers.js';
import { run, tempConfigDir } from '../../helpers/run.js';
import { ScaledClock } from '../../helpers/scaled-clock.js';
import { ID, rx, spelled } from '../../helpers/shapes.js';

const clock = new ScaledClock(100);
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => emu.control.reset());
afterAll(() => emu.close());

const cli = (argv: string[], opts: Parameters<typeof run>[1] = {}) => run(argv, { env, clock, ...opts });
const calls = (method?: string) => emu.control.log(method ? { method } : {});
/** An argument of a logged call. */
const arg = (e: { args?: unknown }, name: string) => (e.args as Record<string, unknown> | undefined)?.[name];

const START = Date.UTC(2026, 10, 22, 12, 0, 0);
/**
 * A ScaledClock whose time stands still until its first sleep, then runs `rate` times faster
 * than the wall clock (a sleep while it stands still would start it: nothing waits forever).
 */
class HeldClock implements Clock {
  private running?: ScaledClock;
  constructor(private readonly rate: number) {}
  now(): number {
    return this.running?.now() ?? START;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.running ??= new ScaledClock(this.rate, START);
    return this.running.sleep(ms, signal);
  }
}

/** A workspace of `count` new sites, some ending otherwise than well; their ids in order. */
function fleet(id: string, count: number, outcomes: Partial<Record<SiteOutcome, number>> = {}): string[] {
  emu.control.createWorkspace({ _id: id, name: id, credits: 100_000 });
  return emu.control.addSites(id, { count, outcomes }).map((s) => s._id);
}
const outcomeOf = (site: string) => emu.emulator.site(site)?.outcome ?? 'success';
const tsv = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
/** A failed publish's status, as the shapes of this run spell it. */
const FAILED = spelled('get_publish_status', 'status', 'failed');
const live = (site: string) => `${emu.baseUrl}/sites/${site}/`;

/** The counted calls of each of the token's minutes, as the emulator counts them (a minute starts with the first call after the last one ran out). */
function minutes(): number[] {
  const counted = calls().filter((e) => e.counted);
  const out: number[] = [];
  let start = Number.NEGATIVE_INFINITY;
  for (const e of counted) {
    const t = Date.parse(e.time);
    if (t >= start + 60_000) {
      start = t;
      out.push(0);
    }
    out[out.length - 1]++;
  }
  return out;
}

describe('publish over many sites', () => {
  it('publishes the sites named as arguments: one TSV line each as it ends, exit 0', async () => {
    const sites = fleet('ws_args', 3);
    const res = await cli(['publish', ...sites]);
    expect(res.code).toBe(0);
    // stderr: the summary alone (--quiet drops it).
    expect(res.stderr).toMatch(/^3 sites in (\d+m)?\d+s: 3 live; \d+ calls, no rate limit met\. Exit 0\.\n$/);
    const rows = tsv(res.stdout);
    expect(rows.map((r) => r[0]).sort()).toEqual(sites);
    for (const [site, outcome, url, code] of rows) expect([outcome, url, code]).toEqual(['live', live(site), '0']);
    // One publish each, each with its own key.
    const starts = calls('publish_site');
    expect(starts.map((e) => arg(e, 'projectId')).sort()).toEqual(sites);
    expect(new Set(starts.map((e) => e.idempotencyKey)).size).toBe(3);
    // The first status of each a poll floor after its start, not at once.
    for (const site of sites) {
      const [start, ...reads] = calls().filter((e) => arg(e, 'projectId') === site);
      expect(Date.parse(reads[0].time) - Date.parse(start.time)).toBeGreaterThanOrEqual(2_000);
    }
  });

  it('--idempotency-key K sends K-SITE for each site, so a re-run publishes nothing twice', async () => {
    const sites = fleet('ws_keys', 2);
    const first = await cli(['publish', ...sites, '--idempotency-key', 'deploy-42']);
    expect(first.code).toBe(0);
    expect(
      calls('publish_site')
        .map((e) => e.idempotencyKey)
        .sort(),
    ).toEqual(sites.map((s) => `deploy-42-${s}`));
    const again = await cli(['publish', ...sites, '--idempotency-key', 'deploy-42', '--quiet']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(calls('publish_site').filter((e) => e.replayed)).toHaveLength(2);
  });

  it('--workspace ID --all-sites: one site fails, the others finish; exit 1 and the failure on stderr', async () => {
    const sites = fleet('ws_all', 6, { failure: 1 });
    const failing = sites.find((s) => outcomeOf(s) === 'failure')!;
    const res = await cli(['publish', '--workspace', 'ws_all', '--all-sites']);
    expect(res.code).toBe(1);
    const rows = tsv(res.stdout);
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r[0] === failing)).toEqual([failing, 'failed', '', '1']);
    expect(rows.filter((r) => r[1] === 'live' && r[3] === '0')).toHaveLength(5);
    expect(res.stderr).toContain(
      `${failing}: The publish of ${failing} ended with status ${FAILED}: The build failed: a page could not be rendered.`,
    );
    expect(res.stderr).toContain(`sitebuilder publish logs ${failing}`);
    // Every site of the workspace, each published once.
    expect(
      calls('publish_site')
        .map((e) => arg(e, 'projectId'))
        .sort(),
    ).toEqual(sites);
  });

  it('--fail-fast starts no more sites once one has failed; the others are reported not started', async () => {
    const sites = fleet('ws_ff', 4, { failure: 1 });
    expect(outcomeOf(sites[0])).toBe('failure');
    const res = await cli(['publish', ...sites, '--concurrency', '1', '--fail-fast']);
    expect(res.code).toBe(1);
    expect(tsv(res.stdout)).toEqual([
      [sites[0], 'failed', '', '1'],
      ...sites.slice(1).map((s) => [s, 'not-started', '', '8']),
    ]);
    expect(calls('publish_site').map((e) => arg(e, 'projectId'))).toEqual([sites[0]]);
    expect(res.stderr).toContain('3 sites were not started');
    expect(res.stderr).toContain('sitebuilder publish -');
  });

  it('--fail-fast on a terminal: a site not started is one row, and the summary gives the command that starts them all', async () => {
    const sites = fleet('ws_ff_tty', 4, { failure: 1 });
    const res = await cli(['publish', ...sites, '--concurrency', '1', '--fail-fast'], { tty: true, columns: 80 });
    expect(res.code).toBe(1);
    const stderr = stripAnsi(res.stderr);
    for (const s of sites.slice(1)) expect(stripAnsi(res.stdout)).toMatch(new RegExp(`^… ${s} +not-started +0s$`, 'm'));
    expect(stderr).not.toContain('--fail-fast stopped the batch');
    // The command whole on a line of its own where the sentence is wider than the terminal.
    expect(stderr).toMatch(
      new RegExp(
        `3 sites were not started \\(outcome not-started above\\); to start them:(?: |\n +)sitebuilder publish ${sites.slice(1).join(' ')}\n`,
      ),
    );
  });

  it('reads the site ids from standard input with -, one a line (blank lines and # comments skipped)', async () => {
    const sites = fleet('ws_stdin', 3);
    const res = await cli(['publish', '-'], {
      stdin: `${sites[0]}\n\n# the others\n${sites[1]}\r\n${sites[2]}\n${sites[0]}\n`,
    });
    expect(res.code).toBe(0);
    expect(
      tsv(res.stdout)
        .map((r) => r[0])
        .sort(),
    ).toEqual(sites);
    // A site named twice is published once, and that is said.
    expect(res.stderr).toContain('1 site id was named twice; each site is worked on once.');
    expect(calls('publish_site')).toHaveLength(3);
  });

  it('refuses bad input before sending anything (exit 2)', async () => {
    fleet('ws_bad', 2);
    const cases: Array<[string[], string | undefined, RegExp]> = [
      [['publish', '-'], 'site_000001\nbad id\n', /line 2 of standard input/],
      [['publish', '-'], '\n# nothing\n', /Standard input named no site/],
      [['publish', '--all-sites'], undefined, /--all-sites needs --workspace ID/],
      [['publish', '--workspace', 'ws_bad'], undefined, /--workspace goes with --all-sites/],
      [['publish', 'site_000001', '--workspace', 'ws_bad', '--all-sites'], undefined, /either as arguments/],
      [
        ['publish', 'site_000001', '--concurrency', '4'],
        undefined,
        /--concurrency and --fail-fast go with several sites/,
      ],
      [['publish', 'site_000001', 'site_000002', '--concurrency', '0'], undefined, /--concurrency/],
      // The bad one named by its place among the sites.
      [['publish', 'site_000001', 'bad id'], undefined, /^error: The site id in place 2 holds spaces/],
      [
        ['chat', '--workspace', 'ws_bad', 'Add a page'],
        undefined,
        /here: sitebuilder chat --workspace ID --all-sites 'Add a page'/,
      ],
    ];
    for (const [argv, stdin, message] of cases) {
      const res = await cli(argv, { stdin });
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
    expect(calls('publish_site')).toHaveLength(0);
    // `-` with a terminal on standard input: the advice names this command.
    const tty = await cli(['chat', '-', 'Add a page'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr.replace(/\n +/g, ' ')).toContain(
      "pipe them in: sitebuilder site list --workspace ID --all | cut -f1 | sitebuilder chat - 'Add a page'",
    );
    expect(calls('send_message')).toHaveLength(0);
  });

  it('--json: one NDJSON record per site as it ends, then a summary record with the most severe exit code', async () => {
    const sites = fleet('ws_json', 4, { failure: 1 });
    const res = await cli(['publish', ...sites, '--json']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('');
    const records = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(5);
    const perSite = records.slice(0, 4);
    for (const r of perSite) {
      expect(Object.keys(r)).toEqual([
        'type',
        'siteId',
        'outcome',
        'exitCode',
        'url',
        'status',
        'deploymentId',
        'error',
        'idempotencyKey',
        'note',
        'next',
        'elapsedMs',
      ]);
      expect(r.type).toBe('site');
      if (outcomeOf(r.siteId) === 'failure')
        expect(r).toMatchObject({
          outcome: 'failed',
          exitCode: 1,
          status: FAILED,
          error: expect.anything(),
          next: [`sitebuilder publish logs ${r.siteId}`],
        });
      else expect(r).toMatchObject({ outcome: 'live', exitCode: 0, url: live(r.siteId), status: 'ready', note: null });
      expect(r.deploymentId).toMatch(new RegExp(`^${ID('dep')}$`));
    }
    expect(records[4]).toEqual({
      type: 'summary',
      sites: 4,
      outcomes: expect.objectContaining({ failed: 1, live: 3 }),
      exitCode: 1,
      interrupted: false,
      calls: calls().length,
      rateLimited: 0,
      elapsedMs: expect.any(Number),
    });
  });

  it('on a terminal: a row per site with a mark as it ends, a live block while it runs, and a summary', async () => {
    const sites = fleet('ws_tty', 3, { failure: 1 });
    const failing = sites.find((s) => outcomeOf(s) === 'failure')!;
    const res = await cli(['publish', '--workspace', 'ws_tty', '--all-sites'], { tty: true, columns: 100 });
    expect(res.code).toBe(1);
    const stdout = stripAnsi(res.stdout);
    for (const site of sites) {
      if (site === failing) expect(stdout).toMatch(new RegExp(`^✗ ${site} +failed +(?:\\d+m)?\\d+s$`, 'm'));
      // The address beside, or under the row where the terminal is too narrow for both.
      else
        expect(stdout).toMatch(
          new RegExp(`^✓ ${site} +live +(?:\\d+m)?\\d+s(?:  |\n    )${live(site).replace(/[./]/g, '\\$&')}$`, 'm'),
        );
    }
    const stderr = stripAnsi(res.stderr);
    expect(stderr).toMatch(/Publishing 3 sites: /);
    expect(stderr).toMatch(
      /3 sites in (\d+m)?\d+s: (1 failed, 2 live|2 live, 1 failed|1 live, 1 failed, 1 live); \d+ calls, no rate limit met\. Exit 1\./,
    );
  });

  it('stdout piped to a program that prints to the same terminal: progress on stderr appended, never redrawn', async () => {
    const sites = fleet('ws_tee', 3, { failure: 1 });
    const failing = sites.find((s) => outcomeOf(s) === 'failure')!;
    const terminal = { stdoutTTY: false, stderrTTY: true, columns: 80, rows: 24 };
    const res = await cli(['publish', '--workspace', 'ws_tee', '--all-sites'], {
      io: { ...terminal, stdoutPipe: true },
    });
    expect(res.code).toBe(1);
    // The data as ever: a tab-separated line per site.
    expect(
      tsv(res.stdout)
        .map((r) => r[0])
        .sort(),
    ).toEqual(sites);
    // No cursor move, no line cleared, no spinner: each line once, as it came.
    expect(res.stderr).not.toMatch(/\r|\x1b/);
    const lines = res.stderr.split('\n');
    expect(lines[0]).toBe('Publishing 3 sites; a line for each as it ends.');
    for (const site of sites)
      expect(
        lines.filter((l) =>
          new RegExp(
            `^${site === failing ? '✗' : '✓'} ${site} +${site === failing ? 'failed' : 'live'} +(?:\\d+m)?\\d+s  [1-3]/3$`,
          ).test(l),
        ),
      ).toHaveLength(1);
    expect(res.stderr.replace(/\n +/g, ' ')).toContain(
      `${failing}: The publish of ${failing} ended with status ${FAILED}`,
    );
    expect(res.stderr).toMatch(/\n3 sites in (\d+m)?\d+s: .*\. Exit 1\.\n$/);

    // Into a file (> file) nothing else prints to the terminal: the live block stays.
    fleet('ws_file', 2);
    const file = await cli(['publish', '--workspace', 'ws_file', '--all-sites'], {
      io: { ...terminal, stdoutPipe: false },
    });
    expect(file.code).toBe(0);
    expect(file.stderr).toContain('\r\x1b[2K');
    expect(stripAnsi(file.stderr)).toMatch(/Publishing 2 sites: /);
    expect(file.stderr).not.toContain('a line for each as it ends');
  });

  it('two batches side by side on one token share its minute: both finish, no 429, no minute over the budget', async () => {
    emu.control.setBudget({ callsPerMinute: 30 });
    const a = fleet('ws_a', 10);
    const b = fleet('ws_b', 10);
    const [ra, rb] = await Promise.all([
      cli(['publish', '--workspace', 'ws_a', '--all-sites', '--json']),
      cli(['publish', '--workspace', 'ws_b', '--all-sites', '--json']),
    ]);
    for (const [res, sites] of [
      [ra, a],
      [rb, b],
    ] as const) {
      expect(res.code).toBe(0);
      const summary = JSON.parse(res.stdout.trim().split('\n').pop()!);
      expect(summary).toMatchObject({ sites: 10, exitCode: 0, rateLimited: 0, outcomes: { live: 10 } });
      expect(calls('publish_site').filter((e) => sites.includes(arg(e, 'projectId') as string))).toHaveLength(10);
    }
    expect(calls().filter((e) => e.status === 429)).toEqual([]);
    // 42 calls at least (a start and a read per site, two listings) need two minutes of 30.
    const perMinute = minutes();
    expect(perMinute.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...perMinute)).toBeLessThanOrEqual(30);
  });

  it("--all-sites lists the workspace at the batch's one gate: a minute another process spent holds the whole batch, and the summary counts every call", async () => {
    // Its own emulator on a clock that stands still until the batch first waits (on the 429's
    // Retry-After: no call of the batch sleeps before it), so that the minute spent before the
    // batch is still on when the batch starts, however loaded the machine.
    const held = new HeldClock(1000);
    const own = await startEmulator({ port: 0, clock: held });
    try {
      own.control.setBudget({ callsPerMinute: 30 });
      own.control.createWorkspace({ _id: 'ws_spent', name: 'ws_spent', credits: 100_000 });
      const sites = own.control.addSites('ws_spent', { count: 3 }).map((s) => s._id);
      // Another process spent the token's minute just before.
      await Promise.all(
        Array.from({ length: 30 }, () =>
          send(own.baseUrl, '/v1/list_workspaces', { token: DEMO_TOKENS.full, body: {} }),
        ),
      );
      const before = own.control.log().length;
      const res = await run(['publish', '--workspace', 'ws_spent', '--all-sites', '--json'], {
        env: { ...env, SITEBUILDER_BASE_URL: own.baseUrl },
        clock: held,
      });
      expect(res.code).toBe(0);
      const mine = own.control.log().slice(before);
      // The listing met the spent minute once; nothing else did: the 429's wait held every call.
      expect(mine.filter((e) => e.status === 429).map((e) => e.method)).toEqual(['list_sites']);
      expect(mine.filter((e) => e.method === 'publish_site').map((e) => arg(e, 'projectId'))).toEqual(
        expect.arrayContaining(sites),
      );
      const summary = JSON.parse(res.stdout.trim().split('\n').pop()!);
      expect(summary).toMatchObject({
        sites: 3,
        exitCode: 0,
        outcomes: { live: 3 },
        rateLimited: 1,
        calls: mine.length,
      });
    } finally {
      await own.close();
    }
  });
});

describe('chat over many sites', () => {
  const MESSAGE = 'Update the footer year to 2027';

  it('a question or a plan on one site blocks no other: each reported with the exact reply command, naming its run', async () => {
    const sites = fleet('ws_chat', 5, { question: 1, plan: 1, failure: 1 });
    const asking = sites.find((s) => outcomeOf(s) === 'question')!;
    const planning = sites.find((s) => outcomeOf(s) === 'plan')!;
    const failing = sites.find((s) => outcomeOf(s) === 'failure')!;
    const configDir = tempConfigDir();
    const res = await cli(['chat', ...sites, MESSAGE], { configDir });
    // The most severe: a failed run (6) before a question (10) and a plan (11).
    expect(res.code).toBe(6);
    const rows = tsv(res.stdout);
    expect(rows).toHaveLength(5);
    const jobOf = (site: string) =>
      (calls('send_message').find((e) => arg(e, 'projectId') === site)
        ? rows.find((r) => r[0] === site)?.[2]
        : undefined)!;
    for (const [site, outcome, job, code] of rows) {
      expect(job).toMatch(new RegExp(`^${ID('job')}$`));
      const expected =
        site === asking
          ? ['question', '10']
          : site === planning
            ? ['plan', '11']
            : site === failing
              ? ['failed', '6']
              : ['succeeded', '0'];
      expect([outcome, code], site).toEqual(expected);
    }
    expect(res.stderr).toContain(`sitebuilder chat ${asking} --answer '…' --job ${jobOf(asking)}`);
    // The question with its options, numbered as the --choose commands below pick them.
    expect(res.stderr).toMatch(
      new RegExp(
        `^${asking}: The agent asks: .+\\? Options \\(the --choose commands below pick them\\): 1\\. .+ · 2\\. .+$`,
        'm',
      ),
    );
    expect(res.stderr).not.toMatch(/--choose N\b/);
    expect(res.stderr).toContain(`sitebuilder chat ${asking} --choose 1 --job ${jobOf(asking)}`);
    expect(res.stderr).toContain(`sitebuilder chat ${asking} --choose 4 --job ${jobOf(asking)}`);
    expect(res.stderr).toContain(`sitebuilder chat ${planning} --approve --job ${jobOf(planning)}`);
    expect(res.stderr).toContain(`sitebuilder chat ${planning} --revise '…' --job ${jobOf(planning)}`);
    // The message went to every site once, as a build message.
    expect(calls('send_message').map((e) => [arg(e, 'projectId'), arg(e, 'prompt')])).toEqual(
      expect.arrayContaining(sites.map((s) => [s, MESSAGE])),
    );
    expect(calls('send_message')).toHaveLength(5);

    // A batch meanwhile skips the site whose question waits: one short sentence, then the commands
    // that answer it, --choose first as the question has options.
    const meanwhile = await cli(['chat', asking, failing, 'Add a blog'], { configDir });
    expect(tsv(meanwhile.stdout).find((r) => r[0] === asking)).toEqual([asking, 'skipped', jobOf(asking), '10']);
    expect(meanwhile.stderr).toContain(
      `${asking}: Nothing was sent: a question waits on run ${jobOf(asking)}, and the agent would take the message as the reply (--yes sends it so).\n${[1, 2, 3, 4].map((n) => `  sitebuilder chat ${asking} --choose ${n} --job ${jobOf(asking)}\n`).join('')}  sitebuilder chat ${asking} --answer '…' --job ${jobOf(asking)}\n`,
    );
    expect(
      calls('send_message')
        .filter((e) => arg(e, 'prompt') === 'Add a blog')
        .map((e) => arg(e, 'projectId')),
    ).toEqual([failing]);

    // The printed command works as printed.
    const answer = await cli(['chat', asking, '--answer', 'Home and contact', '--job', jobOf(asking)], { configDir });
    expect(answer.code).toBe(0);

    // A second batch: the site whose plan waits gets nothing (a new message would answer it) and
    // is reported with the commands that answer; the others get the message.
    const again = await cli(['chat', ...sites, 'Add a privacy page'], { configDir });
    expect(again.code).toBe(6);
    const skipped = tsv(again.stdout).find((r) => r[0] === planning);
    expect(skipped).toEqual([planning, 'skipped', jobOf(planning), '11']);
    expect(again.stderr).toContain(`sitebuilder chat ${planning} --approve --job ${jobOf(planning)}`);
    expect(
      calls('send_message')
        .filter((e) => arg(e, 'prompt') === 'Add a privacy page')
        .map((e) => arg(e, 'projectId'))
        .sort(),
    ).toEqual(sites.filter((s) => s !== planning).sort());
  });

  it('--json: NDJSON per site with the pending question and its commands, then the summary', async () => {
    const sites = fleet('ws_chat_json', 2, { question: 1 });
    const asking = sites.find((s) => outcomeOf(s) === 'question')!;
    const res = await cli(['chat', ...sites, MESSAGE, '--json']);
    expect(res.code).toBe(10);
    const records = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const q = records.find((r) => r.siteId === asking);
    expect(q).toMatchObject({ type: 'site', outcome: 'question', exitCode: 10, state: 'succeeded' });
    expect(q.next).toContain(`sitebuilder chat ${asking} --answer '…' --job ${q.jobId}`);
    expect(q.pending).toMatchObject({ kind: 'question' });
    expect(records.at(-1)).toMatchObject({
      type: 'summary',
      sites: 2,
      exitCode: 10,
      outcomes: { question: 1, succeeded: 1 },
    });
    // Every call went through the batch's one scheduler: first the look-up of each site named.
    expect(records.at(-1).calls).toBe(calls().length);
    expect(
      calls()
        .slice(0, 2)
        .map((e) => [e.method, arg(e, 'projectId')])
        .sort(),
    ).toEqual(sites.map((s) => ['list_messages', s]).sort());
  });

  it('more than five sites: exit 5 and nothing sent without a terminal or --yes; --yes sends', async () => {
    fleet('ws_many', 6);
    const refused = await cli(['chat', '--workspace', 'ws_many', '--all-sites', MESSAGE]);
    expect(refused.code).toBe(5);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      "This message goes to 6 sites, and each site's run costs credits; nothing was sent. Add --yes to send it.",
    );
    expect(calls('send_message')).toHaveLength(0);

    const sent = await cli(['chat', '--workspace', 'ws_many', '--all-sites', MESSAGE, '--yes']);
    expect(sent.code).toBe(0);
    expect(tsv(sent.stdout).map((r) => r[1])).toEqual(Array(6).fill('succeeded'));
    expect(calls('send_message')).toHaveLength(6);
  });

  it('on a terminal, asks before sending to more than five sites; No sends nothing', async () => {
    fleet('ws_ask', 6);
    const no = new ScriptedPrompter(['no']);
    const declined = await cli(['chat', '--workspace', 'ws_ask', '--all-sites', MESSAGE], { tty: true, prompter: no });
    expect(no.asked).toEqual(['Send it to 6 sites?']);
    expect(declined.code).toBe(130);
    expect(declined.stderr).toContain("This message goes to 6 sites, and each site's run costs credits.");
    expect(calls('send_message')).toHaveLength(0);

    const yes = new ScriptedPrompter(['yes']);
    const accepted = await cli(['chat', '--workspace', 'ws_ask', '--all-sites', MESSAGE], { tty: true, prompter: yes });
    expect(accepted.code).toBe(0);
    expect(calls('send_message')).toHaveLength(6);
    // Five sites or fewer are not asked about.
    const few = new ScriptedPrompter([]);
    const sites = fleet('ws_few', 5);
    const quiet = await cli(['chat', ...sites, MESSAGE], { tty: true, prompter: few });
    expect(quiet.code).toBe(0);
    expect(few.asked).toEqual([]);
  });

  it('an unquoted message is not taken for sites: unknown ids exit 2 before anything is sent, with the quoted form', async () => {
    const [site, other] = fleet('ws_words', 2);
    const words = await cli(['chat', site, 'hello', 'there', 'friend']);
    expect(words.code).toBe(2);
    expect(words.stdout).toBe('');
    expect(words.stderr).toBe(
      `error: No site has the id hello or there, so nothing was sent; if "hello there friend" is the message, quote it: sitebuilder chat ${site} 'hello there friend'\n`,
    );
    // Reads only: one look-up a site, and nothing sent.
    expect(calls('send_message')).toHaveLength(0);
    expect(new Set(calls().map((e) => e.method))).toEqual(new Set(['list_messages']));
    expect(
      calls()
        .map((e) => arg(e, 'projectId'))
        .sort(),
    ).toEqual([site, 'hello', 'there'].sort());

    // No site at all among the words: the site goes first.
    const none = await cli(['chat', 'hello', 'there', 'friend']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      `if "hello there friend" is the message, quote it: sitebuilder chat SITE 'hello there friend'`,
    );
    // An unknown id before a known one is a wrong id, not a message.
    const typo = await cli(['chat', 'site_typo', other, 'Update the footer', '--json']);
    expect(typo.code).toBe(2);
    expect(JSON.parse(typo.stderr).error.message).toBe(
      'No site has the id site_typo, so nothing was sent; check the ids (`sitebuilder site list` shows the sites this token reaches).',
    );
    expect(calls('send_message')).toHaveLength(0);
    // One letter off a site the token reaches: that one is named.
    const near = await cli(['chat', 'site_bakry', other, 'Update the footer']);
    expect(near.code).toBe(2);
    expect(near.stderr).toContain(
      'No site has the id site_bakry, so nothing was sent; check the ids (`sitebuilder site list` shows the sites this token reaches). Did you mean site_bakery for site_bakry?',
    );
    expect(calls('send_message')).toHaveLength(0);

    // Quoted, the same words are one message to the sites named (sent, not followed).
    const quoted = await cli(['chat', site, other, 'hello there friend', '--no-follow']);
    expect(quoted.code).toBe(0);
    expect(
      tsv(quoted.stdout)
        .map((r) => [r[0], r[1]])
        .sort(),
    ).toEqual([site, other].sort().map((s) => [s, 'started']));
    expect(
      calls('send_message')
        .map((e) => [arg(e, 'projectId'), arg(e, 'prompt')])
        .sort(),
    ).toEqual([site, other].sort().map((s) => [s, 'hello there friend']));
  });

  it('--fail-fast: each site not sent names the command that sends it, in the same mode; the summary the one for all', async () => {
    const sites = fleet('ws_chat_ff', 3);
    emu.control.updateWorkspace('ws_chat_ff', { credits: 0 });
    const res = await cli(['chat', ...sites, "Add a 'team' page", '--plan', '--concurrency', '1', '--fail-fast']);
    expect(res.code).not.toBe(0);
    const rows = tsv(res.stdout);
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual(sites.slice(1).map((s) => [s, 'not-started']));
    for (const s of sites.slice(1))
      expect(res.stderr).toContain(`  sitebuilder chat ${s} --plan 'Add a '\\''team'\\'' page'\n`);
    expect(res.stderr).toContain(
      "2 sites were not started (outcome not-started above); give their ids, one a line, to: sitebuilder chat - --plan 'Add a '\\''team'\\'' page'",
    );
  });

  it('refuses reply flags and a missing message with several sites (exit 2, nothing sent)', async () => {
    const sites = fleet('ws_chat_bad', 2);
    for (const argv of [
      ['chat', ...sites, MESSAGE, '--approve'],
      ['chat', ...sites, MESSAGE, '--job', 'job_1'],
      ['chat', '--workspace', 'ws_chat_bad', '--all-sites'],
      ['chat', ...sites, '   '],
    ]) {
      const res = await cli(argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/nothing was sent|Nothing was sent|give the message/);
    }
    expect(calls('send_message')).toHaveLength(0);
  });
});

describe('the exit code of a batch', () => {
  it('is the most severe of the sites by the documented order', async () => {
    // A question (10) outranks a plan (11); both outrank what is still pending (8).
    const sites = fleet('ws_order', 3, { question: 1, plan: 1, slow: 1 });
    const res = await cli(['chat', ...sites, 'Refresh the texts of every page', '--timeout', '40s']);
    expect(
      tsv(res.stdout)
        .map((r) => r[3])
        .sort(),
    ).toEqual(['10', '11', '8']);
    expect(res.code).toBe(10);
    expect(res.stdout).toMatch(rx('m')`^${'site'}\tpending\t${'job'}\t8$`);
  });
});
