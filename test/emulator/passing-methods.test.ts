// The methods the service names only in passing: each listing pages with its pattern (followed by
// the CLI's own paginate()), the 10 calls a minute per deploy hook, the 1,200 analytics lookups
// an hour per site, scheduled jobs, collections and secrets.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { paginate } from '../../src/api/paginate.js';
import { FakeClock } from '../../src/clock.js';
import { putStorageFile } from '../../src/emulator/domains/storage-files/files.js';
import { harness, send, type Harness } from './helpers.js';

let h: Harness;
const clock = new FakeClock();
beforeAll(async () => {
  h = await harness({ clock });
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

const client = () => new ApiClient({ baseUrl: h.emu.baseUrl, token: h.emu.token, clock, random: () => 0.5 });
const key = () => ({ headers: { 'idempotency-key': `k-${Math.random()}` } });

async function collect(method: string, args: Record<string, unknown>) {
  const before = h.emu.emulator.log.list({ method }).length;
  const items: unknown[] = [];
  const c = client();
  for await (const item of paginate(c, method, args)) items.push(item);
  c.close();
  return { items, requests: h.emu.emulator.log.list({ method }).length - before };
}

describe('listing patterns', () => {
  it('pages every listing method with the pattern the spec gives it', async () => {
    for (let i = 0; i < 120; i++) {
      putStorageFile(h.emu.emulator, 'site_docs', {
        path: `img/p${String(i).padStart(3, '0')}.png`,
        visibility: 'public',
        contentType: 'image/png',
        contentBase64: 'AA==',
      });
    }
    // paginate() asks for the largest page a method takes unless a limit is given: small ones
    // here, so that every pattern is followed over several pages.
    const cases: Array<[string, Record<string, unknown>, number, number]> = [
      ['list_rows', { projectId: 'site_bakery', collectionId: 'col_orders', limit: 50 }, 130, 3], // offset and count
      ['list_templates', { limit: 5 }, 14, 3],
      ['list_workspace_members', { workspaceId: 'ws_demo', limit: 1 }, 2, 2],
      ['list_workspace_credit_activity', { workspaceId: 'ws_demo', limit: 20 }, 36, 2], // offset with hasMore
      ['list_site_cron_runs', { projectId: 'site_bakery', limit: 20 }, 48, 3], // next cursor
      ['list_site_cron_runs', { projectId: 'site_bakery', cronId: 'cron_bakery_stock', limit: 20 }, 24, 2],
      ['list_deploy_hook_calls', { projectId: 'site_bakery', limit: 20 }, 25, 2],
      ['list_webhook_deliveries', { projectId: 'site_bakery', limit: 20 }, 30, 2],
      ['list_site_email_sends', { projectId: 'site_bakery', limit: 20 }, 45, 3],
      [
        'list_site_email_suppressions',
        { projectId: 'site_bakery', limit: 5 },
        expect.any(Number) as never,
        expect.any(Number) as never,
      ],
      ['list_storage_files', { projectId: 'site_docs', prefix: 'img/' }, 120, 3], // token
      ['list_database_backups', { projectId: 'site_bakery' }, 30, 3], // page numbers
    ];
    for (const [method, args, count, pages] of cases) {
      const { items, requests } = await collect(method, args);
      expect(items.length, method).toEqual(count);
      expect(requests, method).toEqual(pages);
    }
    const engagement = await collect('list_site_email_engagement', { projectId: 'site_bakery' });
    expect(engagement.items.length).toBeGreaterThan(20);
  });

  it('answers newest first with opaque cursors bound to the other arguments', async () => {
    const first = await h.call('list_site_cron_runs', { projectId: 'site_bakery', limit: 3 });
    const runs = first.body.data.items as Array<{ startedAt: string }>;
    expect(runs.map((r) => r.startedAt)).toEqual([...runs.map((r) => r.startedAt)].sort().reverse());
    const cursor = first.body.data.nextCursor;
    expect(typeof cursor).toBe('string');
    const moved = await h.call('list_site_cron_runs', {
      projectId: 'site_bakery',
      cronId: 'cron_bakery_stock',
      cursor,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toContain('keep the other arguments the same');
    expect((await h.call('list_site_cron_runs', { projectId: 'site_bakery', cursor: 'garbage' })).status).toBe(400);
    const last = await h.call('list_database_backups', { projectId: 'site_bakery', page: 3 });
    expect(last.body.data).toMatchObject({ page: 3, totalPages: 3 });
    const credit = await h.call('list_workspace_credit_activity', { workspaceId: 'ws_demo' });
    expect(credit.body.data).toMatchObject({ hasMore: true, nextOffset: 20 });
  });
});

describe('deploy hooks', () => {
  it('takes 10 calls a minute per hook, through the API and its address, then refuses until the minute passes', async () => {
    const first = await h.call('trigger_deploy_hook', { projectId: 'site_bakery', hookId: 'hook_bakery_cms' }, key());
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ outcome: 'publishing', via: 'api', deploymentId: expect.any(String) });
    // The publish started by the first call is still running: the next calls are refused with 422, and still counted.
    const second = await send(h.emu.baseUrl, '/hooks/deploy/hook_bakery_cms', { verb: 'POST', body: {} });
    expect(second.status).toBe(422);
    expect(second.body.message).toMatch(
      /^The deploy hook "CMS publish" was called, but the publish was refused: This site is already being published/,
    );
    for (let i = 0; i < 8; i++)
      await h.call('trigger_deploy_hook', { projectId: 'site_bakery', hookId: 'hook_bakery_cms' }, key());
    clock.advance(15_000);
    const limited = await h.call('trigger_deploy_hook', { projectId: 'site_bakery', hookId: 'hook_bakery_cms' }, key());
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeUndefined();
    expect(limited.body.message).toBe(
      'The deploy hook "CMS publish" was called 10 times in the last minute, the most it takes. Try again in 45 seconds.',
    );
    // Another hook has its own minute.
    expect(
      (await h.call('trigger_deploy_hook', { projectId: 'site_docs', hookId: 'hook_docs_ci' }, key())).status,
    ).toBe(200);
    clock.advance(45_000);
    expect(
      (await h.call('trigger_deploy_hook', { projectId: 'site_bakery', hookId: 'hook_bakery_cms' }, key())).status,
    ).toBe(200);
    const calls = await h.call('list_deploy_hook_calls', {
      projectId: 'site_bakery',
      hookId: 'hook_bakery_cms',
      limit: 2,
    });
    expect(calls.body.data.items[0]).toMatchObject({ via: 'api', outcome: 'publishing' });
  });

  it('refuses with 422 when the publish is refused, carrying the publish refusal', async () => {
    await h.control('POST', 'sites/site_docs/code-hosting', { state: 'moving' });
    const res = await h.call('trigger_deploy_hook', { projectId: 'site_docs', hookId: 'hook_docs_ci' }, key());
    expect(res.status).toBe(422);
    expect(res.body.data.publish.status).toBeGreaterThanOrEqual(400);
    expect((await h.call('trigger_deploy_hook', { projectId: 'site_docs', hookId: 'hook_nope' }, key())).status).toBe(
      404,
    );
  });
});

describe('analytics', () => {
  it('answers the last 7 days by default, stable for a site and a day', async () => {
    const a = await h.call('get_site_analytics', { projectId: 'site_bakery' });
    expect(a.body.data.days).toHaveLength(7);
    expect(a.body.data.totals.visits).toBe(
      a.body.data.days.reduce((n: number, d: { visits: number }) => n + d.visits, 0),
    );
    const b = await h.call('get_site_analytics', {
      projectId: 'site_bakery',
      from: a.body.data.from,
      to: a.body.data.to,
    });
    expect(b.body.data).toEqual(a.body.data);
    expect(
      (await h.call('get_site_analytics_pages', { projectId: 'site_bakery', limit: 3 })).body.data.items,
    ).toHaveLength(3);
    expect((await h.call('get_site_analytics', { projectId: 'site_bakery', from: '2026-02-30' })).status).toBe(400);
    expect(
      (await h.call('get_site_analytics', { projectId: 'site_bakery', from: '2020-01-01', to: '2026-01-01' })).status,
    ).toBe(400);
  });

  it('allows 1,200 lookups an hour per site, shared by every token, then refuses with how long to wait', async () => {
    const lookups = h.emu.emulator.slice<{ lookups: Record<string, number[]> }>('analytics').lookups;
    lookups.site_bakery = Array.from({ length: 1_198 }, () => clock.now() - 30 * 60_000);
    expect((await h.call('get_site_analytics_referrers', { projectId: 'site_bakery' })).status).toBe(200);
    expect(
      (
        await h.call(
          'get_site_analytics_pages',
          { projectId: 'site_bakery' },
          { token: 'sbt_demo_narrow_0b7e4d2a9c1f3865' },
        )
      ).status,
    ).toBe(200);
    const refused = await h.call('get_site_analytics', { projectId: 'site_bakery' });
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'This site used its 1,200 analytics lookups of the hour (shared by every token and AI client). Try again in 30 minutes.',
    );
    expect((await h.call('get_site_analytics', { projectId: 'site_docs' })).status).toBe(200);
  });
});

describe('scheduled jobs, collections, secrets', () => {
  it('runs a scheduled job once at a time', async () => {
    const run = await h.call('run_site_cron', { projectId: 'site_bakery', cronId: 'cron_bakery_digest' }, key());
    expect(run.body.data).toMatchObject({ status: 'running', trigger: 'manual' });
    const busy = await h.call('run_site_cron', { projectId: 'site_bakery', cronId: 'cron_bakery_digest' }, key());
    expect(busy.status).toBe(409);
    expect(busy.body.message).toContain('already running');
    clock.advance(5_000);
    const latest = await h.call('list_site_cron_runs', {
      projectId: 'site_bakery',
      cronId: 'cron_bakery_digest',
      limit: 1,
    });
    expect(latest.body.data.items[0]).toMatchObject({ runId: run.body.data.runId, status: 'succeeded' });
    expect(
      (await h.call('run_site_cron', { projectId: 'site_bakery', cronId: 'cron_bakery_digest' }, key())).status,
    ).toBe(200);
  });

  it('exports a collection as JSON or CSV, and never sends a secret back', async () => {
    const json = await h.call('export_collection', { projectId: 'site_bakery', collectionId: 'col_menu' });
    expect(json.body.data).toMatchObject({ format: 'json', rowCount: 64 });
    expect(json.body.data.rows).toHaveLength(64);
    const csv = await h.call('export_collection', {
      projectId: 'site_bakery',
      collectionId: 'col_orders',
      format: 'csv',
    });
    expect(csv.body.data.content.split('\r\n')[0]).toBe('_id,customer,total,pickupAt,note');
    expect(csv.body.data.content).toContain('"Please slice, ""thin"", thanks"');
    const set = await h.call(
      'set_secret',
      { projectId: 'site_bakery', name: 'STRIPE_KEY', value: 'sk_live_abc' },
      key(),
    );
    expect(set.body.data).toMatchObject({ name: 'STRIPE_KEY', created: true });
    expect(set.text).not.toContain('sk_live_abc');
    expect(
      (await h.call('set_secret', { projectId: 'site_bakery', name: 'STRIPE_KEY', value: 'x' }, key())).body.data
        .created,
    ).toBe(false);
    const bad = await h.call('set_secret', { projectId: 'site_bakery', name: 'stripe key', value: 'x' }, key());
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('upper-case');
  });
});
