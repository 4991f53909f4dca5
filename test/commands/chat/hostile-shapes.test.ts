// The chat commands against a service of shapes no alias list knows (a scripted server,
// test/helpers/method-server.ts): text, task lists and file changes in forms the model cannot
// read are said, never dropped; a plan that cannot be read is never shown as a plan; decisions
// stay the same whatever the history's records look like; a state the reference does not list
// is never a reason to refuse a cancel; a job id the answer does not name is never printed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { type MethodServer, startMethodServer } from '../../helpers/method-server.js';
import { envelope } from '../../helpers/script-server.js';
import { tempConfigDir } from '../../helpers/run.js';
import { ndjson, runCli } from './helpers.js';

const SITE = 'site_x';
const clock = new FakeClock();
let server: MethodServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startMethodServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  env = {
    SITEBUILDER_BASE_URL: server.baseUrl,
    SITEBUILDER_TOKEN: 'sbt_test_0123456789abcdef',
    NO_COLOR: '1',
    SITEBUILDER_CONFIG_DIR: tempConfigDir(),
  };
});

const cli = (argv: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) => runCli(argv, { env, clock, ...o });
const ev = (event: string, data: unknown) => ({ event, data });

/** A history of records whose every field is under a name no alias list knows. */
let history: unknown[] = [];
const HOSTILE_RECORD = (n: number) => ({ zq_ref: `r${n}`, zq_when: { epoch_ns: n * 1e15 }, zq_body: [{ kind: 'x' }] });

/** A service whose run `job_1` ends with these events (and in this state). */
function service(events: unknown[], state = 'succeeded') {
  history = [HOSTILE_RECORD(1), HOSTILE_RECORD(2)];
  server.answers.list_messages = () => ({ body: envelope({ zq_page: history, hasMore: false }) });
  server.answers.send_message = { queued: false, jobId: 'job_1' };
  server.answers.get_job = { state, events, cursor: events.length, creditsCharged: 2 };
}

describe('what the model cannot read is said, never dropped or filled in', () => {
  const PLAN = [
    // Two texts where one is looked for, and no list of tasks or path of a file to be found.
    ev('text', { zq_first: 'Step one: a gallery.', zq_then: 'Step two: prices.' }),
    ev('todos', { zq_steps: { zq_count: 2 } }),
    ev('file_changed', { zq_target: { p: 'gallery.html' } }),
    ev('plan_approval_requested', {}),
  ];

  it('piped: one note for each kind, the plan run ends saying its text was not shown; exit 11', async () => {
    service(PLAN);
    const r = await cli(['chat', SITE, '--plan', 'A gallery please', '--yes']);
    expect(r.code).toBe(11);
    for (const what of ['text', 'a task list', 'a file change'])
      expect(
        r.stdout.match(new RegExp(`^note\\tthe service sent ${what} sitebuilder cannot read; --json shows it$`, 'gm')),
        what,
      ).toHaveLength(1);
    expect(r.stdout).toMatch(/^plan\twaiting for approval\ttext not shown$/m);
    expect(r.stderr).toContain('The plan’s text could not be read here; --json shows it.');
    expect(r.stdout).not.toContain('Step one');
    expect(r.stdout).not.toContain('Step two');
  });

  it('--json: the events pass through as sent, and pending.plan is null, never an empty plan', async () => {
    service(PLAN);
    const lines = ndjson((await cli(['chat', SITE, '--plan', 'A gallery please', '--yes', '--json'])).stdout);
    expect(lines.filter((l) => l.event).map((l) => l.data)).toEqual(PLAN.map((e) => e.data));
    expect(lines.at(-1)).toMatchObject({ type: 'end', outcome: 'plan', pending: { kind: 'plan', plan: null } });
  });

  it('--debug names the field paths looked at', async () => {
    service(PLAN);
    const r = await cli(['chat', SITE, '--plan', 'A gallery please', '--yes', '--debug']);
    expect(r.stderr).toMatch(
      /\[debug\] unread text: looked for data\.text, data\.content, .*; data held an object with zq_first, zq_then/,
    );
  });

  it('text in content blocks and wrapped objects is read, in order, under names no list knows too', async () => {
    service([
      ev('text', [{ type: 'text', text: 'Hello ' }, { type: 'image' }]),
      ev('text', { delta: { text: 'world.\n' } }),
      ev('text', [{ kind: 'markdown', body: 'And ' }]),
      ev('text', { chunk: { md: 'more.\n' }, seq: 4 }),
    ]);
    const r = await cli(['chat', SITE, 'Say hello', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^text\tHello world\.$/m);
    expect(r.stdout).toMatch(/^text\tAnd more\.$/m);
    expect(r.stdout).not.toContain('cannot read');
  });
});

describe('decisions no shape can fool', () => {
  const QUESTION = [
    ev('tool_call', { name: 'ask_user', input: { question: 'Which style?', options: ['Calm', 'Bold'] } }),
  ];

  it('whatever the records look like: the end seen here, the same history, the reply goes, with its reply key', async () => {
    service(QUESTION);
    const asked = await cli(['chat', SITE, 'make it nice', '--yes']);
    expect(asked.code).toBe(10);
    const r = await cli(['chat', SITE, '--choose', '2', '--job', 'job_1', '--no-follow']);
    expect(r.code).toBe(0);
    const sends = server.sent('send_message');
    expect(sends.at(-1)).toEqual({ projectId: SITE, prompt: 'Bold' });
    // One reply per question: the key is derived from the site, the run and what waits on it.
    expect(server.keys('send_message').at(-1)).toMatch(/^sitebuilder-reply-[\w-]{32}$/);
  });

  it('a record not seen when the question came: something happened since, nothing is sent', async () => {
    service(QUESTION);
    expect((await cli(['chat', SITE, 'make it nice', '--yes'])).code).toBe(10);
    history = [HOSTILE_RECORD(3), ...history];
    const before = server.sent('send_message').length;
    const r = await cli(['chat', SITE, '--answer', 'Calm', '--job', 'job_1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '1 record of its chat history was not there when run job_1 ended: something happened since',
    );
    expect(server.sent('send_message')).toHaveLength(before);
  });

  it('a run in a state the reference does not list: a question it showed is the user’s to answer (--yes)', async () => {
    service(QUESTION, 'awaiting_input');
    const r = await cli(['chat', SITE, '--answer', 'Calm', '--job', 'job_1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("job_1 is in the state awaiting_input, which the service's reference does not list");
    expect(r.stderr).toContain('add --yes');
    expect(server.sent('send_message')).toHaveLength(0);
    expect((await cli(['chat', SITE, '--answer', 'Calm', '--job', 'job_1', '--yes', '--no-follow'])).code).toBe(0);
    expect(server.sent('send_message')).toHaveLength(1);
  });
});

describe('a job id the answer does not name', () => {
  it('chat --no-follow: stdout empty, exit 1, where to see the run; the message is not sent again', async () => {
    service([]);
    server.answers.send_message = { queued: false, zq_run: { ref: 'job_1' } };
    const r = await cli(['chat', SITE, 'Add a page please', '--yes', '--no-follow']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('named no job id');
    expect(r.stderr).toContain('sitebuilder message list site_x');
    expect(server.sent('send_message')).toHaveLength(1);
  });
});

describe('cancel and resume', () => {
  it('job cancel --job of a run in a state the reference does not list is sent; the service decides', async () => {
    server.answers.get_job = { state: 'paused_for_review', events: [], cursor: 0 };
    server.answers.cancel_job = {};
    const r = await cli(['job', 'cancel', SITE, '--job', 'job_7']);
    expect(r.code).toBe(0);
    expect(server.sent('cancel_job')).toEqual([{ projectId: SITE }]);
    // The answer names neither the run nor its state, and no transition is stated from this one.
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('The service did not say what became of run job_7');
  });

  it('job cancel --job of a running run: the stated transition, when the answer says nothing', async () => {
    server.answers.get_job = { state: 'running', events: [], cursor: 0 };
    server.answers.cancel_job = { zq_ok: 1 };
    const r = await cli(['job', 'cancel', SITE, '--job', 'job_7']);
    expect(r.stdout).toBe('job_7\tcancelled\n');
  });

  it('queue resume whose answer names no run prints no job id and exits 1, so JOB=$(…) && next stops', async () => {
    server.answers.resume_queue = { zq_started: { ref: 'job_9' } };
    const r = await cli(['queue', 'resume', SITE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('did not name the run it started');
  });
});
