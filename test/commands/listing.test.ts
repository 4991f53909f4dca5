// The listing commands (site, workspace, backup, code-backup, storage-backup list, tools) and
// `api --paginate`: the largest pages, newest first where promised, and every column read from
// either shape, against the emulator; then against hostile servers, every way a listing could
// run for ever, repeat itself, come back malformed or fail half-way: it ends, with an error
// saying so where records may be missing, and --json output stays one valid document.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { CODE_BACKUPS_DOMAIN } from '../../src/emulator/domains/code-backups/domain.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { run } from '../helpers/run.js';
import { envelope, type ScriptedAnswer, type ScriptServer, startScriptServer } from '../helpers/script-server.js';
import { SHAPES } from '../helpers/shapes.js';

const clock = new FakeClock();

/** The times of a column of tab-separated rows, as ms (ISO-8601 when piped). */
const column = (stdout: string, i: number) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t')[i]);
const isNewestFirst = (times: number[]) => times.every((t, i) => i === 0 || times[i - 1] >= t);

describe('listings against the emulator', () => {
  let emu: RunningEmulator;
  let env: Record<string, string>;
  const sent = (method: string) => emu.emulator.log.list({ method });
  const cli = (argv: string[]) => run(argv, { env, clock });
  async function control(path: string, body: unknown): Promise<void> {
    const res = await fetch(`${emu.baseUrl}/_emulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.ok, path).toBe(true);
  }

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clock });
    env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
  });
  beforeEach(() => emu.control.reset());
  afterAll(() => emu.close());

  it('site list --all reads 2,500 sites in 3 calls of 1,000; the default 30 in one call', async () => {
    await control('workspaces', { _id: 'ws_many', name: 'Many', plan: 'paid', siteLimit: 5000 });
    await control('workspaces/ws_many/sites', { count: 2500 });
    const all = await cli(['site', 'list', '--workspace', 'ws_many', '--all']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toBe('');
    const ids = column(all.stdout, 0);
    expect(ids).toHaveLength(2500);
    expect(new Set(ids).size).toBe(2500);
    expect(column(all.stdout, 1).every((name) => name !== '')).toBe(true);
    expect(sent('list_sites').map((e) => e.args)).toEqual([
      { workspaceId: 'ws_many', limit: 1000 },
      { workspaceId: 'ws_many', limit: 1000, offset: 1000 },
      { workspaceId: 'ws_many', limit: 1000, offset: 2000 },
    ]);
    const json = await cli(['site', 'list', '--workspace', 'ws_many', '--all', '--json']);
    expect(JSON.parse(json.stdout).map((s: { _id: string }) => s._id)).toEqual(ids);
    emu.emulator.log.clear();
    const first = await cli(['site', 'list', '--workspace', 'ws_many']);
    const shown = column(first.stdout, 0);
    expect(new Set(shown).size).toBe(30);
    expect(shown.every((id) => ids.includes(id))).toBe(true);
    expect(sent('list_sites').map((e) => e.args)).toEqual([{ workspaceId: 'ws_many', limit: 30 }]);
  });

  it('backup, code-backup and storage-backup lists are newest first by their creation time', async () => {
    // 24 more code backups (two pages of 20), kept in an order that is not by time.
    const codeBackups = emu.emulator.slice<{ backups: Record<string, unknown[]> }>(CODE_BACKUPS_DOMAIN).backups;
    for (let i = 0; i < 24; i++) {
      (codeBackups.site_bakery ??= []).push({
        codeBackupId: `cbk_extra_${i}`,
        siteId: 'site_bakery',
        jobId: null,
        label: `Extra ${i}`,
        createdAt: Date.UTC(2026, 9, 1) + ((i * 7) % 24) * 3_600_000,
        files: { 'index.html': '<h1>x</h1>' },
        brief: '',
        notes: [],
      });
    }
    const lists: Array<[string[], number]> = [
      [['backup', 'list', 'site_bakery'], 4],
      [['code-backup', 'list', 'site_bakery', '--all'], 1],
      [['code-backup', 'list', 'site_bakery'], 1],
      [['storage-backup', 'list', 'site_bakery', '--all'], 1],
    ];
    for (const [argv, at] of lists) {
      const res = await cli(argv);
      expect(res.code, argv.join(' ')).toBe(0);
      const times = column(res.stdout, at).map((t) => Date.parse(t));
      expect(times.length, argv.join(' ')).toBeGreaterThan(1);
      expect(times.every(Number.isFinite), argv.join(' ')).toBe(true);
      expect(isNewestFirst(times), argv.join(' ')).toBe(true);
      expect(res.stderr, argv.join(' ')).not.toContain('service’s order');
      const json = JSON.parse((await cli([...argv, '--json'])).stdout);
      const created = json.map((b: { createdAt: string | number }) => new Date(b.createdAt).getTime());
      expect(created, argv.join(' ')).toEqual(times);
    }
  });

  it('workspace list and tools read every column from either shape', async () => {
    const ws = await cli(['workspace', 'list']);
    expect(ws.code).toBe(0);
    expect(ws.stderr).toBe('');
    for (const row of ws.stdout.trim().split('\n')) expect(row.split('\t').every((cell) => cell !== '')).toBe(true);
    const tools = await cli(['tools']);
    expect(tools.stderr).toBe('');
    expect(tools.stdout).toMatch(/^restart_site_email_domain_verification\tconfig:write\tdestructive\t/m);
    expect(tools.stdout).toMatch(/^list_sites\tsites:read\tread, pages: offset\t/m);
    expect(tools.stdout).toMatch(/^set_secret\tconfig:write\twrite\t/m);
  });
});

// A hostile server's answers are the test's own, whatever the emulator's shapes: those tests run in
// the default project only (the alternate one would repeat them word for word).
const ONCE = SHAPES === 'alternate';

describe.skipIf(ONCE)('listings against hostile servers', () => {
  let server: ScriptServer;
  const env = () => ({ SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: 'sb_test_listing_token' });
  const cli = (argv: string[]) => run(argv, { env: env(), clock });
  const site = (i: number) => ({ _id: `site_${i}`, name: `Site ${i}`, workspaceId: 'ws_1' });
  const sites = (from: number, n: number) => Array.from({ length: n }, (_, i) => site(from + i));
  const bodies = (method: string) =>
    server.requests.filter((r) => r.url === `/v1/${method}`).map((r) => JSON.parse(r.body));
  /** Answers by method and body; list_workspaces always names ws_1. */
  function serve(handler: (method: string, body: Record<string, any>) => ScriptedAnswer | undefined): void {
    server.answerFor = (req) => {
      const method = req.url.replace(/^\/v1\//, '');
      if (method === 'list_workspaces') return { body: envelope([{ _id: 'ws_1', name: 'One' }]) };
      return handler(method, JSON.parse(req.body || '{}'));
    };
  }
  const refusal = (status: number, message: string): ScriptedAnswer => ({
    status,
    body: { success: false, code: status, message, data: null },
  });

  beforeAll(async () => {
    server = await startScriptServer();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.script = [];
  });
  afterAll(() => server.close());

  it('pages without a count that ignore offset: an error on the second page, not 114,138 requests', async () => {
    serve(() => ({ body: envelope([site(1)]) }));
    const all = await cli(['site', 'list', '--workspace', 'ws_1', '--all']);
    expect(all.code).toBe(1);
    expect(all.stdout).toBe('site_1\tSite 1\tws_1\t\n');
    expect(all.stderr).toContain(
      'list_sites sent page 2 with the same records as page 1 (it seems to ignore `offset`); stopped after 1 record, so the listing is incomplete.',
    );
    expect(all.stderr).toContain('warning: the 1 sites printed above are only part of the list.');
    expect(bodies('list_sites')).toEqual([
      { workspaceId: 'ws_1', limit: 1000 },
      { workspaceId: 'ws_1', limit: 1000, offset: 1 },
    ]);
    // Plain `site list` printed this one record 30 times.
    server.requests.length = 0;
    const plain = await cli(['site', 'list']);
    expect(plain.code).toBe(1);
    expect(plain.stdout.trim().split('\n')).toHaveLength(1);
    expect(bodies('list_sites')).toHaveLength(2);
    // api --paginate made 156,369 requests: now two, and the array it printed is closed.
    server.requests.length = 0;
    const api = await cli(['api', 'list_sites', '-f', 'workspaceId=ws_1', '--paginate']);
    expect(api.code).toBe(1);
    expect(JSON.parse(api.stdout)).toEqual([site(1)]);
    expect(bodies('list_sites')).toHaveLength(2);
  });

  it('the same page again despite a count, or the same cursor twice: an error, the records read kept', async () => {
    serve(() => ({ body: envelope(sites(0, 3), 200, 'ok', { count: 500 }) }));
    const json = await cli(['site', 'list', '--workspace', 'ws_1', '--all', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(sites(0, 3));
    const doc = JSON.parse(json.stderr).error;
    expect(doc).toMatchObject({ exitCode: 1, incomplete: true, printed: 3, method: 'list_sites' });
    expect(doc.message).toContain('list_sites sent page 2 with the same records as page 1');
    // A cursor handed out twice: c1 → c2 → c1 would go round for ever.
    const next: Record<string, string> = { first: 'c1', c1: 'c2', c2: 'c1' };
    serve((_m, body) => {
      const at = (body.cursor as string | undefined) ?? 'first';
      return { body: envelope({ items: [{ _id: `run_${at}` }], nextCursor: next[at] }) };
    });
    const loop = await cli(['api', 'list_site_cron_runs', '-f', 'projectId=site_1', '--paginate']);
    expect(loop.code).toBe(1);
    expect(JSON.parse(loop.stdout).map((r: { _id: string }) => r._id)).toEqual(['run_first', 'run_c1', 'run_c2']);
    expect(loop.stderr).toContain('list_site_cron_runs handed out the same cursor twice (page 3)');
    expect(bodies('list_site_cron_runs')).toHaveLength(3);
  });

  it('an empty page ends a listing; an empty page that says more follow is an error', async () => {
    serve((_m, body) => ({ body: envelope(body.offset ? [] : sites(0, 3)) }));
    const end = await cli(['site', 'list', '--workspace', 'ws_1', '--all']);
    expect(end.code).toBe(0);
    expect(end.stdout.trim().split('\n')).toHaveLength(3);
    expect(bodies('list_sites')).toHaveLength(2);
    server.requests.length = 0;
    serve((_m, body) => ({ body: envelope(body.offset ? [] : sites(0, 3), 200, 'ok', { count: 10 }) }));
    const more = await cli(['site', 'list', '--workspace', 'ws_1', '--all']);
    expect(more.code).toBe(1);
    expect(more.stderr).toContain(
      'list_sites answered an empty page 2 although it says more follow; stopped after 3 records, so the listing is incomplete.',
    );
  });

  it('malformed envelopes are errors naming what is missing, never an empty list with exit 0', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'holds no list of records (its data is an object with no fields)'],
      ['sites', 'holds no list of records (its data is text)'],
      [null, 'holds no list of records (its data is null)'],
      [{ total: 3, next: null }, 'holds no list of records (its data is an object with the fields total, next)'],
      [
        { projects: [site(1)], tags: ['a'] },
        'holds 2 lists (projects, tags) and none under `items`, so which one holds the records is not known',
      ],
    ];
    for (const [data, problem] of cases) {
      serve(() => ({ body: envelope(data) }));
      for (const argv of [
        ['site', 'list', '--workspace', 'ws_1'],
        ['site', 'list', '--workspace', 'ws_1', '--all', '--json'],
        ['api', 'list_sites', '-f', 'workspaceId=ws_1', '--paginate'],
      ]) {
        const res = await cli(argv);
        expect(res.code, `${argv.join(' ')} ${JSON.stringify(data)}`).toBe(1);
        expect(res.stdout, argv.join(' ')).toBe('');
        expect(res.stderr).toContain(`The answer to list_sites ${problem}; nothing was taken from it.`);
      }
    }
    serve(() => ({ body: envelope({}) }));
    for (const argv of [
      ['workspace', 'list'],
      ['backup', 'list', 'site_1'],
      ['code-backup', 'list', 'site_1'],
      ['tools'],
    ]) {
      server.answerFor = () => ({ body: envelope('nothing') });
      const res = await cli(argv);
      expect(res.code, argv.join(' ')).toBe(1);
      expect(res.stdout, argv.join(' ')).toBe('');
      expect(res.stderr, argv.join(' ')).toContain('holds no list of records (its data is text)');
    }
  });

  it('a failure on a later page leaves one closed JSON array and says so; on the first page, stdout stays empty', async () => {
    serve((_m, body) =>
      body.offset ? refusal(400, 'Bad offset.') : { body: envelope(sites(0, 1000), 200, 'ok', { count: 2000 }) },
    );
    for (const argv of [
      ['site', 'list', '--workspace', 'ws_1', '--all', '--json'],
      ['api', 'list_sites', '-f', 'workspaceId=ws_1', '--paginate', '--json'],
    ]) {
      const res = await cli(argv);
      expect(res.code, argv.join(' ')).toBe(1);
      expect(JSON.parse(res.stdout), argv.join(' ')).toHaveLength(1000);
      expect(JSON.parse(res.stderr).error, argv.join(' ')).toMatchObject({ incomplete: true, printed: 1000 });
    }
    serve(() => refusal(400, 'Bad workspace.'));
    const first = await cli(['site', 'list', '--workspace', 'ws_1', '--all', '--json']);
    expect(first.code).toBe(1);
    expect(first.stdout).toBe('');
    expect(JSON.parse(first.stderr).error.incomplete).toBeUndefined();
  });

  it('an answer nested 200,000 levels deep is refused in a sentence: no lone `[` on stdout', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    serve(() => ({
      raw: `{"success":true,"code":200,"message":"","data":[${deep}]}`,
      contentType: 'application/json',
    }));
    for (const argv of [
      ['site', 'list', '--workspace', 'ws_1', '--json'],
      ['site', 'list', '--workspace', 'ws_1'],
      ['api', 'list_sites', '-f', 'workspaceId=ws_1', '--paginate'],
    ]) {
      const res = await cli(argv);
      expect(res.code, argv.join(' ')).toBe(1);
      expect(res.stdout, argv.join(' ')).toBe('');
      expect(res.stderr).toContain('The answer to list_sites holds records nested more than 256 levels deep');
    }
  });

  it.each(['number', 'text'])(
    'cursors, tokens and next offsets or pages go back exactly as they came (%s)',
    async (kind) => {
      const token = (n: number) => (kind === 'number' ? 100 + n : `t${n}`);
      /** Three pages of one record each; page n (0, 1, 2) hands out token(n + 1) for the next. */
      interface PageOf {
        at: number;
        more: boolean;
        next: unknown;
        items: Array<{ _id: string }>;
      }
      const pageOf = (body: Record<string, any>, arg: string): PageOf | ScriptedAnswer => {
        const first = arg === 'page' ? body.page === 1 : body[arg] === undefined;
        const at = first ? 0 : [1, 2].find((n) => body[arg] === token(n));
        if (at === undefined)
          return refusal(400, `\`${arg}\` was not sent back as it came: ${JSON.stringify(body[arg])}.`);
        return { at, more: at < 2, next: at < 2 ? token(at + 1) : null, items: [{ _id: `r${at}` }] };
      };
      const patterns: Array<[string, string, (p: PageOf) => unknown]> = [
        ['list_workspace_credit_activity', 'offset', (p) => ({ items: p.items, hasMore: p.more, nextOffset: p.next })],
        ['list_site_cron_runs', 'cursor', (p) => ({ items: p.items, nextCursor: p.next })],
        ['list_storage_files', 'token', (p) => ({ files: p.items, nextToken: p.next })],
        ['list_messages', 'cursor', (p) => ({ messages: p.items, hasMore: p.more, oldestCursor: p.next })],
        ['list_database_backups', 'page', (p) => ({ backups: p.items, nextPage: p.next })],
      ];
      for (const [method, arg, shape] of patterns) {
        serve((_m, body) => {
          const p = pageOf(body, arg);
          return 'at' in p ? { body: envelope(shape(p)) } : p;
        });
        server.requests.length = 0;
        const res = await cli(['api', method, '-f', 'projectId=site_1', '-f', 'workspaceId=ws_1', '--paginate']);
        expect(res.code, `${method}: ${res.stderr}`).toBe(0);
        expect(JSON.parse(res.stdout), method).toEqual([{ _id: 'r0' }, { _id: 'r1' }, { _id: 'r2' }]);
        expect(
          bodies(method).map((b) => b[arg]),
          method,
        ).toEqual([method === 'list_database_backups' ? 1 : undefined, token(1), token(2)]);
      }
      // offset and count: the offset is ours to count; the count may come as text.
      serve((_m, body) => ({
        body: envelope(sites(body.offset ?? 0, 2).slice(0, 5 - (body.offset ?? 0)), 200, 'ok', {
          count: kind === 'number' ? 5 : '5',
        }),
      }));
      server.requests.length = 0;
      const offset = await cli(['api', 'list_sites', '-f', 'workspaceId=ws_1', '-F', 'limit=2', '--paginate']);
      expect(JSON.parse(offset.stdout).map((s: { _id: string }) => s._id)).toEqual(sites(0, 5).map((s) => s._id));
      expect(bodies('list_sites').map((b) => b.offset)).toEqual([undefined, 2, 4]);
    },
  );

  it('pages of page numbers end at pageCount (or totalPages), at a short page or at an empty one', async () => {
    const backups = (page: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        backupId: `sb_${page}_${i}`,
        createdAt: Date.UTC(2026, 0, 30 - page, 12 - i),
      }));
    const shapes: Array<[string, (page: number) => unknown, number]> = [
      ['pageCount', (page) => ({ backups: backups(page, 10), page, pageCount: 2 }), 2],
      ['a short page', (page) => ({ backups: backups(page, page < 3 ? 10 : 4) }), 3],
      ['an empty page', (page) => ({ backups: backups(page, page < 3 ? 10 : 0) }), 3],
    ];
    for (const [what, data, calls] of shapes) {
      serve((_m, body) => ({ body: envelope(data(body.page)) }));
      server.requests.length = 0;
      const res = await cli(['storage-backup', 'list', 'site_1', '--all']);
      expect(res.code, what).toBe(0);
      expect(
        bodies('list_storage_backups').map((b) => b.page),
        what,
      ).toEqual(Array.from({ length: calls }, (_, i) => i + 1));
      expect(isNewestFirst(column(res.stdout, 1).map((t) => Date.parse(t))), what).toBe(true);
    }
    // One page shown: the next-page hint says whether the service said more follow.
    serve((_m, body) => ({ body: envelope({ backups: backups(body.page, 10) }) }));
    expect((await cli(['storage-backup', 'list', 'site_1'])).stderr).toContain(
      'There may be more (the service did not say) on the next page: --page 2, or --all.',
    );
  });

  it('a method that takes no `limit`: the listing starts again at the service’s own page size', async () => {
    serve((_m, body) => {
      if ('limit' in body) return refusal(400, 'Unknown argument `limit`.');
      const offset = body.offset ?? 0;
      return { body: envelope(sites(offset, Math.min(2, 5 - offset)), 200, 'ok', { count: 5 }) };
    });
    const res = await cli(['site', 'list', '--workspace', 'ws_1', '--all']);
    expect(res.code, res.stderr).toBe(0);
    expect(column(res.stdout, 0)).toEqual(sites(0, 5).map((s) => s._id));
    expect(bodies('list_sites')).toEqual([
      { workspaceId: 'ws_1', limit: 1000 },
      { workspaceId: 'ws_1' },
      { workspaceId: 'ws_1', offset: 2 },
      { workspaceId: 'ws_1', offset: 4 },
    ]);
  });

  it('says once on stderr which column the service sent no field for; newest first only when every record shows a time', async () => {
    serve(() => ({
      body: envelope([{ _id: 'site_1' }, { _id: 'site_2', updatedAt: '2026-01-01T00:00:00Z' }], 200, 'ok', {
        count: 2,
      }),
    }));
    const res = await cli(['site', 'list', '--workspace', 'ws_1']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('site_1\t\tws_1\t\nsite_2\t\tws_1\t2026-01-01T00:00:00.000Z\n');
    expect(res.stderr).toBe('warning: the service sent no NAME for these sites (looked for name, title, label).\n');
    expect((await cli(['site', 'list', '--workspace', 'ws_1', '--json'])).stderr).toBe('');
    serve(() => ({
      body: envelope({ items: [{ _id: 'b1', createdAt: 5 }, { _id: 'b2' }, { _id: 'b3', createdAt: 9 }] }),
    }));
    const backups = await cli(['backup', 'list', 'site_1']);
    expect(column(backups.stdout, 0)).toEqual(['b1', 'b2', 'b3']);
    expect(backups.stderr).toContain(
      'warning: some backups show no creation time, so they are in the service’s order.',
    );
  });
});
