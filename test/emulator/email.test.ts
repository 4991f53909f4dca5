// Email domains in the emulator: the settings, every refusal of the restart word for word, the
// workspace's 10 restarts an hour, and what a restart changes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
const clock = new FakeClock();
beforeAll(async () => {
  h = await harness({ clock });
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

const restart = (projectId: string, domainId: string, token = DEMO_TOKENS.full) =>
  h.call(
    'restart_site_email_domain_verification',
    { projectId, domainId },
    { token, headers: { 'idempotency-key': `k-${Math.random()}` } },
  );

describe('get_site_email_settings', () => {
  it('lists the domains under emailDomains.items with three DKIM records and one ownership record', async () => {
    const res = await h.call('get_site_email_settings', { projectId: 'site_bakery' });
    expect(res.status).toBe(200);
    const items = res.body.data.emailDomains.items;
    expect(items.map((d: { domainId: string }) => d.domainId)).toEqual(['edom_bakery_mail', 'edom_bakery_news']);
    for (const d of items) {
      expect(d).toMatchObject({
        domainId: expect.any(String),
        dkimStatus: expect.any(String),
        canRestart: expect.any(Boolean),
      });
      expect(d.dkimRecords).toHaveLength(3);
      expect(d.ownershipRecord).toMatchObject({
        type: 'TXT',
        host: expect.stringContaining(d.domain),
        value: expect.any(String),
      });
    }
    expect(items[0]).toMatchObject({ dkimStatus: 'success', verified: true, canRestart: false });
    expect(items[1]).toMatchObject({ dkimStatus: 'failed', canRestart: true });
  });

  it('seeds every dkimStatus', async () => {
    const all = (await h.control('GET', 'email-domains')).body.data as Array<{ dkimStatus: string }>;
    expect(new Set(all.map((d) => d.dkimStatus))).toEqual(
      new Set(['failed', 'not_started', 'pending', 'temporary_failure', 'success']),
    );
  });
});

describe('restart_site_email_domain_verification', () => {
  it('changes the three DKIM records, keeps the ownership record, and leaves the domain pending', async () => {
    const before = (await h.call('get_site_email_settings', { projectId: 'site_bakery' })).body.data.emailDomains
      .items[1];
    const res = await restart('site_bakery', 'edom_bakery_news');
    expect(res.status).toBe(200);
    const after = res.body.data;
    expect(after.ownershipRecord).toEqual(before.ownershipRecord);
    for (let i = 0; i < 3; i++) {
      expect(after.dkimRecords[i].value).not.toBe(before.dkimRecords[i].value);
      expect(after.dkimRecords[i].host).not.toBe(before.dkimRecords[i].host);
    }
    expect(after).toMatchObject({ dkimStatus: 'pending', canRestart: false, restartsLeftThisHour: 9 });
    const listed = (await h.call('get_site_email_settings', { projectId: 'site_bakery' })).body.data.emailDomains
      .items[1];
    expect(listed.dkimRecords).toEqual(after.dkimRecords);
  });

  it('refuses with each message of the spec, word for word', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['site_bakery', 'edom_bakery_mail', 422, 'This domain is verified, so there is nothing to restart!'],
      // Not verified here, but the same name is verified on site_bakery.
      ['site_portfolio', 'edom_portfolio_shared', 422, 'This domain is verified, so there is nothing to restart!'],
      [
        'site_docs',
        'edom_docs',
        409,
        'The mail provider is still verifying this domain, so there is nothing to restart!',
      ],
      [
        'site_docs',
        'edom_docs_eu',
        409,
        'The mail provider is still verifying this domain, so there is nothing to restart!',
      ],
      ['site_blog', 'edom_blog', 403, 'Email domains are paused until the workspace is on a paid plan again!'],
    ];
    for (const [site, domain, status, message] of cases) {
      const res = await restart(site, domain);
      expect(res.status, domain).toBe(status);
      expect(res.body.message, domain).toBe(message);
    }
    await h.control('POST', 'email-domains/edom_portfolio', { dkimStatus: 'success' });
    const confirmed = await restart('site_portfolio', 'edom_portfolio');
    expect(confirmed.body.message).toBe(
      "The mail provider already confirmed this domain's sending records, so there is nothing to restart!",
    );
  });

  it('restarts a domain whose setup is missing, and a paused one once the plan is paid again', async () => {
    expect((await restart('site_docs', 'edom_docs_updates')).status).toBe(200);
    await h.control('POST', 'workspaces/ws_free', { plan: 'paid' });
    expect((await restart('site_blog', 'edom_blog')).status).toBe(200);
  });

  it('needs the Manage domains permission and the config:write scope', async () => {
    const editor = await restart('site_portfolio', 'edom_portfolio', DEMO_TOKENS.teammate);
    expect(editor.status).toBe(403);
    expect(editor.body.message).toContain('Manage domains');
    const readonly = await restart('site_portfolio', 'edom_portfolio', DEMO_TOKENS.readonly);
    expect(readonly.status).toBe(403);
    expect(readonly.body.message).toContain('config:write');
    expect((await restart('site_portfolio', 'edom_nope')).status).toBe(404);
  });

  it('allows 10 restarts an hour per workspace across its sites, then says how long to wait', async () => {
    for (let i = 0; i < 11; i++)
      await h.control('POST', 'sites/site_docs/email-domains', { domain: `d${i}.acme.example`, dkimStatus: 'failed' });
    const ids = (
      (await h.call('get_site_email_settings', { projectId: 'site_docs' })).body.data.emailDomains.items as Array<{
        domainId: string;
        domain: string;
      }>
    )
      .filter((d) => /^d\d+\./.test(d.domain))
      .map((d) => d.domainId);
    expect((await restart('site_bakery', 'edom_bakery_news')).status).toBe(200);
    clock.advance(20 * 60_000);
    for (const id of ids.slice(0, 9)) expect((await restart('site_docs', id)).status).toBe(200);
    const refused = await restart('site_docs', ids[9]);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(refused.body.message).toBe(
      'This workspace has restarted email domain verification too many times this hour. Try again in 40 minutes.',
    );
    expect(refused.body.data.retryAfterSeconds).toBe(40 * 60);
    // Another workspace is not affected; the first restart leaves the window after an hour.
    clock.advance(40 * 60_000);
    expect((await restart('site_docs', ids[9])).status).toBe(200);
  });

  it('gives up on a restarted domain after 72 pending hours: failed, restartable again', async () => {
    await restart('site_bakery', 'edom_bakery_news');
    clock.advance(72 * 3_600_000);
    const d = (await h.call('get_site_email_settings', { projectId: 'site_bakery' })).body.data.emailDomains.items[1];
    expect(d).toMatchObject({ dkimStatus: 'failed', canRestart: true });
  });
});
