// publish, publish status, publish logs and upload, in-process against a real emulator on port 0
// sharing a FakeClock with the CLI (its sleeps move the emulated publish forward): pinned JSON
// shapes, exit codes, the Idempotency-Key of retries, and what was sent.
import { mkdtempSync, openSync, closeSync, ftruncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { InterruptedError } from '../../../src/errors.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { run } from '../../helpers/run.js';
import { type MethodAnswer, type MethodServer, startMethodServer } from '../../helpers/method-server.js';
import { envelope } from '../../helpers/script-server.js';
import { asService, fieldName, idRegExp, refusalCode, rx, SHAPES, spelled } from '../../helpers/shapes.js';

const SITE = 'site_portfolio';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => {
  emu.control.reset();
  clock.sleeps = [];
});
afterAll(() => emu.close());

const cli = (argv: string[], opts: Parameters<typeof run>[1] = {}) => run(argv, { env, clock, ...opts });
const calls = (method?: string) => emu.control.log(method ? { method } : {});
const control = async (verb: string, path: string, body?: unknown) =>
  (
    (await (
      await fetch(`${emu.baseUrl}/_emulator/${path}`, {
        method: verb,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as any
  ).data;
const deployments = async (site = SITE) => {
  const res = await fetch(`${emu.baseUrl}/v1/list_deployments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: site }),
  });
  return ((await res.json()) as any).count as number;
};
/** get_publish_status's data as the service answers it now. */
const rawStatus = async (site = SITE) => {
  const res = await fetch(`${emu.baseUrl}/v1/get_publish_status`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
    body: JSON.stringify({ projectId: site }),
  });
  return ((await res.json()) as any).data as Record<string, unknown>;
};
const PUBLISH_KEYS = [
  'siteId',
  'running',
  'status',
  'url',
  'deploymentId',
  'startedAt',
  'finishedAt',
  'error',
  'files',
  'createdBy',
  'live',
  'waited',
  'idempotencyKey',
];
/** The keys of the publish record the command always prints, in order. */
const FIXED = PUBLISH_KEYS.slice(0, 8);
/** The service's other fields, passed through after the fixed ones. */
const passedThrough = (raw: Record<string, unknown>) => Object.keys(raw).filter((k) => !FIXED.includes(k));

describe('publish', () => {
  it('waits until live and prints one JSON document with a pinned shape', async () => {
    const res = await cli(['publish', SITE, '--json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const doc = JSON.parse(res.stdout);
    expect(doc.idempotencyKey).toBe(calls('publish_site')[0].idempotencyKey);
    // Polled every few seconds, never in a tight loop.
    expect(calls('get_publish_status')).toHaveLength(3);
    expect(clock.sleeps).toEqual([2_000, 3_200]);
    // The fixed keys, then the service's other fields as it sends them (files, createdBy, live in ours).
    expect(Object.keys(doc)).toEqual([...FIXED, ...passedThrough(await rawStatus()), 'waited', 'idempotencyKey']);
    expect(doc).toMatchObject({
      siteId: SITE,
      running: false,
      status: 'ready',
      url: `${emu.baseUrl}/sites/${SITE}/`,
      error: null,
      waited: true,
      [fieldName('get_publish_status', 'live')]: true,
    });
    expect(doc.deploymentId).toMatch(idRegExp('dep'));
  });

  it('prints only the live address when piped, and nothing on stderr', async () => {
    const res = await cli(['publish', SITE]);
    expect(res).toEqual({ code: 0, stdout: `${emu.baseUrl}/sites/${SITE}/\n`, stderr: '' });
    // --wait is the default, accepted for scripts that spell it out.
    const spelled = await cli(['publish', 'site_docs', '--wait']);
    expect(spelled).toEqual({ code: 0, stdout: `${emu.baseUrl}/sites/site_docs/\n`, stderr: '' });
  });

  it('shows progress and the elapsed time on stderr on a terminal', async () => {
    const res = await cli(['publish', SITE], { tty: true });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${emu.baseUrl}/sites/${SITE}/\n`);
    expect(res.stderr).toMatch(/Published site_portfolio in \ds/);
  });

  it('--no-wait returns once the publish has started', async () => {
    const res = await cli(['publish', SITE, '--no-wait', '--json']);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    // The status as the service spells it (only `ready` is shown).
    const queued = spelled('publish_site', 'status', 'queued');
    expect(doc).toMatchObject({ siteId: SITE, running: true, status: queued, waited: false });
    expect(calls('get_publish_status')).toHaveLength(0);
    const plain = await cli(['publish', 'site_docs', '--no-wait']);
    expect(plain.stdout).toBe(`${emu.baseUrl}/sites/site_docs/\n`);
    expect(plain.stderr).toMatch(/sitebuilder publish status site_docs/);
  });

  it('retries a publish whose answer was lost (500 after it took effect) with the same key: one publish', async () => {
    await control('POST', 'faults', { method: 'publish_site', status: 500, when: 'after' });
    const res = await cli(['publish', SITE, '--json']);
    expect(res.code).toBe(0);
    const sent = calls('publish_site');
    expect(sent.map((c) => c.status)).toEqual([500, 200]);
    expect(sent[0].idempotencyKey).toBeTruthy();
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
    expect(sent[1].replayed).toBe(true);
    expect(await deployments()).toBe(1);
    expect(JSON.parse(res.stdout).idempotencyKey).toBe(sent[0].idempotencyKey);
  });

  it('retries a publish whose connection dropped mid-answer with the same key: one publish', async () => {
    await control('POST', 'faults', { method: 'publish_site', drop: true });
    const res = await cli(['publish', SITE, '--no-wait']);
    expect(res.code).toBe(0);
    const sent = calls('publish_site');
    expect(sent).toHaveLength(2);
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
    expect(await deployments()).toBe(1);
  });

  it('Ctrl-C stops waiting with exit 130; the publish goes on', async () => {
    const controller = new AbortController();
    const interrupting = new FakeClock();
    interrupting.sleep = async (ms, signal) => {
      controller.abort(new InterruptedError());
      return clock.sleep(ms, signal);
    };
    const res = await cli(['publish', SITE], { clock: interrupting, signal: controller.signal });
    expect(res.code).toBe(130);
    expect(res.stderr).toBe(
      'Stopped waiting; the publish of site_portfolio goes on. Check it with `sitebuilder publish status site_portfolio`.\n',
    );
    expect(await deployments()).toBe(1);
  });

  it('reuses --idempotency-key across runs of a script: the second run publishes nothing new', async () => {
    const first = await cli(['publish', SITE, '--idempotency-key', 'ci-run-42', '--no-wait', '--json']);
    const again = await cli(['publish', SITE, '--idempotency-key', 'ci-run-42', '--no-wait', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).deploymentId).toBe(JSON.parse(first.stdout).deploymentId);
    expect(await deployments()).toBe(1);
    const bad = await cli(['publish', SITE, '--idempotency-key', 'has space']);
    expect(bad.code).toBe(2);
    expect(calls('publish_site')).toHaveLength(2);
  });

  it('--timeout exits 8 while the publish goes on, printing its status', async () => {
    await control('POST', 'publish', { durationMs: 120_000 });
    const res = await cli(['publish', SITE, '--timeout', '10s', '--json']);
    expect(res.code).toBe(8);
    const queued = spelled('get_publish_status', 'status', 'queued');
    expect(JSON.parse(res.stdout)).toMatchObject({ running: true, status: queued, waited: true });
    expect(JSON.parse(res.stderr).error).toMatchObject({ type: 'PendingError', exitCode: 8 });
    const plain = await cli(['publish', 'site_docs', '--timeout', '5s']);
    expect(plain.code).toBe(8);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(
      /^error: The publish of site_docs is still running after 5s \(--timeout\); it goes on\. Check it with `sitebuilder publish status site_docs`\.\n$/,
    );
  });

  it('waits out a 429 with Retry-After, then succeeds', async () => {
    await control('POST', 'faults', { method: 'get_publish_status', status: 429 });
    const res = await cli(['publish', SITE]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${emu.baseUrl}/sites/${SITE}/\n`);
    const statuses = calls('get_publish_status').map((c) => c.status);
    expect(statuses[0]).toBe(429);
    expect(statuses.at(-1)).toBe(200);
    expect(clock.sleeps.some((ms) => ms >= 1_000 && ms < 1_300)).toBe(true);
  });

  it('exits 1 naming the logs command when the publish fails', async () => {
    await control('POST', `sites/${SITE}/publish-failure`, { message: 'Page /gallery could not be rendered.' });
    const res = await cli(['publish', SITE]);
    expect(res.code).toBe(1);
    const failed = spelled('get_publish_status', 'status', 'failed');
    expect(res.stderr).toBe(
      `error: The publish of site_portfolio ended with status ${failed}: Page /gallery could not be rendered. See \`sitebuilder publish logs site_portfolio\`.\n`,
    );
  });

  it('says why the service refused (code moving into a code-hosting service)', async () => {
    await control('POST', `sites/${SITE}/code-hosting`, { state: 'moving' });
    const res = await cli(['publish', SITE, '--json']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr).error).toMatchObject({ status: 409, data: { code: refusalCode('code_moving') } });
    expect(calls('publish_site')).toHaveLength(1);
  });

  it('says how to follow a publish that is already running', async () => {
    await cli(['publish', SITE, '--no-wait']);
    const res = await cli(['publish', SITE]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      rx()`^error: A publish of site_portfolio is already running \(${'dep'}\); follow it with \`sitebuilder publish status site_portfolio --wait\`, then publish again\. \(request ${'req'}\)\n$`,
    );
  });

  it('needs a site', async () => {
    const res = await cli(['publish']);
    expect(res.code).toBe(2);
    expect(calls()).toHaveLength(0);
  });
});

describe('publish status and publish logs', () => {
  it('publish status --json has a pinned shape', async () => {
    const never = JSON.parse((await cli(['publish', 'status', SITE, '--json'])).stdout);
    const neverRaw = await rawStatus();
    expect(never).toEqual({
      siteId: SITE,
      running: false,
      status: spelled('get_publish_status', 'status', 'unpublished'),
      url: null,
      deploymentId: null,
      startedAt: null,
      finishedAt: null,
      error: null,
      // The service's other fields as it sends them (none in ours).
      ...Object.fromEntries(passedThrough(neverRaw).map((k) => [k, neverRaw[k]])),
    });
    await cli(['publish', SITE]);
    const live = JSON.parse((await cli(['publish', 'status', SITE, '--json'])).stdout);
    expect(Object.keys(live)).toEqual([...FIXED, ...passedThrough(await rawStatus())]);
    expect(live).toMatchObject({ running: false, status: 'ready', url: `${emu.baseUrl}/sites/${SITE}/` });
  });

  it('publish status prints tab-separated fields when piped', async () => {
    const res = await cli(['publish', 'status', 'site_bakery']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('status\tready\n');
    expect(res.stdout).toContain(`url\t${emu.baseUrl}/sites/site_bakery/\n`);
  });

  it('publish logs prints lines, and --json one document', async () => {
    await cli(['publish', SITE]);
    const plain = await cli(['publish', 'logs', SITE]);
    expect(plain.code).toBe(0);
    const lines = plain.stdout.trim().split('\n');
    expect(lines[0]).toMatch(rx()`^\d{4}-\d\d-\d\dT[\d:.]+Z\tinfo\tPublish ${'dep'} requested by Dana Demo\.$`);
    expect(lines.at(-1)).toBe(`${lines.at(-1)!.split('\t')[0]}\tinfo\tLive at ${emu.baseUrl}/sites/${SITE}/`);
    const limited = await cli(['publish', 'logs', SITE, '--limit', '2']);
    expect(limited.stdout.trim().split('\n')).toHaveLength(2);
    expect(limited.stderr).toMatch(/Showing 2 of \d+ lines; --all shows every line\./);
    const doc = JSON.parse((await cli(['publish', 'logs', SITE, '--all', '--json'])).stdout);
    expect(Object.keys(doc)).toEqual(['siteId', 'total', 'lines']);
    expect(doc.total).toBe(lines.length);
    expect(Object.keys(doc.lines[0])).toEqual(['at', 'level', 'message']);
    expect((await cli(['publish', 'logs', SITE, '--all', '--limit', '3'])).code).toBe(2);
  });
});

describe('site view', () => {
  it('says where the site is live, read as `publish` reads it', async () => {
    const res = await cli(['site', 'view', 'site_bakery']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Publish\tready\n');
    expect(res.stdout).toContain(`Live at\t${emu.baseUrl}/sites/site_bakery/\n`);
    const doc = JSON.parse((await cli(['site', 'view', 'site_bakery', '--json'])).stdout);
    expect(doc).toMatchObject({ workspaceId: 'ws_demo', url: `${emu.baseUrl}/sites/site_bakery/` });
    expect(doc.publish).toMatchObject({ siteId: 'site_bakery', running: false, status: 'ready' });
    const never = await cli(['site', 'view', SITE]);
    expect(never.stdout).toContain(`Publish\t${spelled('get_publish_status', 'status', 'unpublished')}\n`);
    expect(never.stdout).toContain('Live at\tnone named by the service\n');
  });
});

// A service whose answers the emulator does not give (the shapes the reference leaves open, and
// broken ones): a scripted server on 127.0.0.1 answering each method as the test says. No
// emulator: the same answers in either project, so run in the default one only.
describe.skipIf(SHAPES === 'alternate')('against answers of other shapes', () => {
  let server: MethodServer;
  let answers: MethodServer['answers'];
  beforeAll(async () => {
    server = await startMethodServer();
    answers = server.answers;
  });
  beforeEach(() => server.reset());
  afterAll(() => server.close());
  const other = (argv: string[], opts: Parameters<typeof run>[1] = {}) =>
    run(argv, { env: { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full }, clock, ...opts });

  it('prints no id where the address goes: without one stdout stays empty, stderr says so, exit 1', async () => {
    answers.publish_site = { _id: 'dep_000003', running: true, status: 'pending' };
    answers.get_publish_status = { _id: 'dep_000003', running: false, status: 'ready' };
    const res = await other(['publish', 'site_x']);
    // The address is stdout's contract: none read, the exit code says so (URL=$(…) && next stops).
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      'warning: The publish of site_x is live, but sitebuilder cannot read an address in the service’s answer, so none is printed; `sitebuilder publish status site_x --json` shows every field the service sent.\n',
    );
    // --json is complete either way: url null, the service's fields as it sent them.
    const doc = JSON.parse((await other(['publish', 'site_x', '--json'])).stdout);
    expect(doc).toMatchObject({ siteId: 'site_x', status: 'ready', url: null, deploymentId: 'dep_000003' });
    expect(doc._id).toBe('dep_000003');
    const started = await other(['publish', 'site_x', '--no-wait']);
    expect(started.code).toBe(0);
    expect(started.stdout).toBe('');
    expect(started.stderr).toMatch(/^warning: The service’s answer to publish_site named no address for site_x; /);
    expect(started.stderr).toContain('Publishing site_x; follow it with `sitebuilder publish status site_x --wait`.');
  });

  it('reads the address under its other names; a bare host name becomes https; an id or a path is never one', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ liveUrl: 'https://bakery.example/' }, 'https://bakery.example/'],
      [{ publicUrl: 'https://bakery.example/shop/' }, 'https://bakery.example/shop/'],
      [{ siteUrl: 'http://127.0.0.1:8080/s/' }, 'http://127.0.0.1:8080/s/'],
      [{ address: 'https://bakery.example' }, 'https://bakery.example'],
      [{ domain: 'Bakery.Example.com' }, 'https://bakery.example.com/'],
      [{ url: 'dep_000003', hostname: 'www.bakery.example' }, 'https://www.bakery.example/'],
      [{ url: '/sites/site_x/' }, ''],
      [{ url: 'dep_000003', domain: 'dep_000003' }, ''],
      [{ address: '12 Baker Street' }, ''],
    ];
    for (const [fields, address] of cases) {
      answers.publish_site = { running: true, status: 'queued', ...fields };
      const res = await other(['publish', 'site_x', '--no-wait']);
      expect(res.code, JSON.stringify(fields)).toBe(0);
      expect(res.stdout, JSON.stringify(fields)).toBe(address ? `${address}\n` : '');
      if (!address) expect(res.stderr).toContain('named no address');
    }
  });

  it('publish status: an answer without `running` is an error naming it, never "status unknown"', async () => {
    const cases: Array<[MethodAnswer, string]> = [
      [{}, 'its data has no fields'],
      [{ status: 'ready', publicUrl: 'https://a.example/' }, 'its data has the fields status, publicUrl'],
      [{ running: 'no', status: 'ready' }, 'its `running` is "no"'],
      ['ready', 'its data is text'],
      [null, 'its data is null'],
    ];
    for (const [data, held] of cases) {
      answers.get_publish_status = data;
      const res = await other(['publish', 'status', 'site_x']);
      expect(res.code, JSON.stringify(data)).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(
        new RegExp(
          `^error: The answer to get_publish_status for site_x has no \`running\` \\(true or false\\), so whether a publish is running is not known \\(${held.replace(/[()]/g, '\\$&')}\\)\\. \\(request req_\\d+\\)\\n$`,
        ),
      );
      expect(res.stderr).not.toContain('unknown\n');
      const json = await other(['publish', 'status', 'site_x', '--json']);
      expect(json.code).toBe(1);
      expect(json.stdout).toBe('');
    }
  });

  it('a wait on answers without `running` stops at once, saying the publish may go on', async () => {
    answers.publish_site = { running: true, status: 'queued', url: 'https://a.example/' };
    answers.get_publish_status = { state: 'live' };
    const res = await other(['publish', 'site_x']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(
      'The publish of site_x was started and may go on; see `sitebuilder publish logs site_x`.',
    );
    expect(server.sent('get_publish_status')).toHaveLength(1);
  });

  it('publish status leaves what the answer did not give empty and names it on stderr', async () => {
    answers.get_publish_status = { running: false, status: 'ready', publicUrl: 'https://a.example/' };
    const res = await other(['publish', 'status', 'site_x']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      'site\tsite_x\nstatus\tready\nrunning\tno\nurl\thttps://a.example/\ndeployment\t\nstarted\t\nfinished\t\n',
    );
    expect(res.stderr).toBe('Not in the service’s answer, so left empty: deployment id, start time, finish time.\n');
    answers.get_publish_status = { running: false, status: 'ready', _id: 'dep_1' };
    const live = await other(['publish', 'status', 'site_x']);
    expect(live.stdout).toContain('url\t\n');
    expect(live.stderr).toContain(
      'warning: The publish of site_x is live, but sitebuilder cannot read an address in the service’s answer;',
    );
  });

  it('names why a publish failed, whatever the error field is called', async () => {
    for (const error of [
      { detail: 'Page /gallery could not be rendered.' },
      { reason: 'Page /gallery could not be rendered.' },
      'Page /gallery could not be rendered.',
      { error: { message: 'Page /gallery could not be rendered.' } },
    ]) {
      answers.publish_site = { running: true };
      answers.get_publish_status = { running: false, status: 'error', error };
      const res = await other(['publish', 'site_x']);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        'error: The publish of site_x ended with status error: Page /gallery could not be rendered. See `sitebuilder publish logs site_x`.\n',
      );
    }
    answers.get_publish_status = { running: false };
    const bare = await other(['publish', 'site_x']);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(
      /^error: The publish of site_x finished, but the service’s answer gave no status, so it is not known to be live\./,
    );
  });

  it('a redirect is no publish: --no-wait exits 1 saying so, and never "Publishing"', async () => {
    answers.publish_site = () => ({
      status: 302,
      headers: { location: 'https://elsewhere.example/v1/publish_site' },
      body: envelope({ running: true, url: 'https://elsewhere.example/' }),
    });
    const res = await other(['publish', 'site_x', '--no-wait']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^error: The service answered publish_site with a redirect \(HTTP 302 to "https:\/\/elsewhere\.example\/v1\/publish_site"\); a redirect is never followed and nothing was taken from it\./,
    );
    expect(res.stderr).not.toContain('Publishing');
  });

  it('site view says when the status names no address, and when it cannot be read', async () => {
    answers.list_workspaces = [{ _id: 'ws_1' }];
    answers.list_sites = () => ({ body: envelope([{ _id: 'site_x', title: 'X' }], 200, 'ok', { count: 1 }) });
    answers.get_publish_status = { running: false, status: 'ready' };
    const res = await other(['site', 'view', 'site_x']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Live at\tlive, but the service named no address\n');
    expect(res.stdout).toContain('Name\tX\n');
    expect(res.stderr).toBe('Not in the service’s site record, so left empty: creation time.\n');
    answers.list_sites = () => ({
      body: envelope([{ _id: 'site_x', liveUrl: 'https://x.example/' }], 200, 'ok', { count: 1 }),
    });
    answers.get_publish_status = {};
    const fallback = await other(['site', 'view', 'site_x']);
    expect(fallback.code).toBe(0);
    expect(fallback.stdout).toContain('Publish\tunknown (`sitebuilder publish status site_x` says why)\n');
    expect(fallback.stdout).toContain('Live at\thttps://x.example/\n');
  });
});

describe('upload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-upload-'));
  const logo = join(dir, 'logo.svg');
  const notes = join(dir, 'notes.txt');
  writeFileSync(logo, '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(notes, 'hello');

  it('prints one permanent address per line, each serving the file', async () => {
    const res = await cli(['upload', SITE, logo, notes, '--folder', 'brand/']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const urls = res.stdout.trim().split('\n');
    expect(urls).toEqual([
      `${emu.baseUrl}/storage/${SITE}/brand/logo.svg`,
      `${emu.baseUrl}/storage/${SITE}/brand/notes.txt`,
    ]);
    const served = await fetch(urls[0]);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(await served.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
  });

  it('--json prints an array of records with a pinned shape', async () => {
    const res = await cli(['upload', SITE, notes, '--json']);
    const doc = JSON.parse(res.stdout);
    const address = `${emu.baseUrl}/storage/${SITE}/notes.txt`;
    // The service's other fields as it sends them (path, visibility, updatedAt in ours), then the command's.
    const {
      url: _u,
      size: _s,
      contentType: _c,
      ...passed
    } = asService('upload_storage_file', {
      url: address,
      path: 'notes.txt',
      size: 5,
      contentType: 'text/plain',
      visibility: 'public',
      updatedAt: new Date(0).toISOString(),
    });
    expect(doc).toEqual([
      {
        ...passed,
        updatedAt: typeof passed.updatedAt === 'number' ? expect.any(Number) : expect.any(String),
        siteId: SITE,
        file: notes,
        name: 'notes.txt',
        url: `${emu.baseUrl}/storage/${SITE}/notes.txt`,
        size: 5,
        contentType: 'text/plain',
      },
    ]);
  });

  it('takes the default site when the first argument is a file', async () => {
    const res = await cli(['upload', notes], { env: { ...env, SITEBUILDER_SITE: 'site_docs' } });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${emu.baseUrl}/storage/site_docs/notes.txt\n`);
    const none = await cli(['upload', SITE]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/Name the files to upload/);
  });

  it('refuses a missing, unreadable or oversized file before sending anything', async () => {
    const big = join(dir, 'big.bin');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 100 * 1024 * 1024 + 1);
    closeSync(fd);
    mkdirSync(join(dir, 'folder'), { recursive: true });
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.png'), /^error: Cannot read .*missing\.png \(no such file\)\. Nothing was uploaded\.\n$/],
      [join(dir, 'folder'), /is a directory; upload takes files/],
      [
        big,
        /is 104,857,601 bytes \(100 MiB\); files up to 104,857,600 bytes \(100 MiB\) can be uploaded\. Nothing was uploaded\./,
      ],
    ];
    for (const [file, message] of cases) {
      const res = await cli(['upload', SITE, logo, file]);
      expect(res.code, file).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
    const twice = await cli(['upload', SITE, logo, logo]);
    expect(twice.code).toBe(2);
    expect(calls()).toHaveLength(0);
  });
});
