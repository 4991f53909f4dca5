// `email restart` in a real terminal (tmux), driving the built binary against an emulator on
// port 0: the confirmation names what changes, yes restarts and shows the new records marked,
// no changes nothing (exit 130).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
let emu: RunningEmulator;
const sessions: TmuxSession[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await emu.close();
});

function start(args: string[]): TmuxSession {
  const session = new TmuxSession([process.execPath, BIN, ...args], {
    SITEBUILDER_BASE_URL: emu.baseUrl,
    SITEBUILDER_TOKEN: DEMO_TOKENS.full,
    SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-tty-')), 'config'),
  });
  sessions.push(session);
  return session;
}

const restarts = () => emu.emulator.log.list({ method: 'restart_site_email_domain_verification' });

describe.skipIf(!hasTmux)('email restart in a terminal', () => {
  it('asks first, then prints the new records and marks which changed', async () => {
    const t = start(['email', 'restart', 'site_bakery', 'edom_bakery_news']);
    const asked = await t.waitForPrompt(/Go ahead\?/);
    expect(asked).toContain(
      'Restart the email domain verification of news.sunrisebakery.example (edom_bakery_news) on site site_bakery:',
    );
    expect(asked).toContain('the ownership record stays as it is');
    expect(restarts()).toHaveLength(0);
    // A confirmation needs Enter: the `y` alone shows, and answers nothing yet.
    t.send('y');
    await t.waitForPrompt(/^\? Go ahead\? \(y\/N\) y\s*$/);
    expect(restarts()).toHaveLength(0);
    t.send('Enter');
    const done = await t.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=0');
    expect(done).toContain('3 records changed: replace them at your DNS host.');
    expect(done).toMatch(/^RECORD +TYPE +HOST +CHANGED +VALUE$/m);
    expect(done).toMatch(/^DKIM 1 +CNAME +sb2k1\._domainkey\.news\.sunrisebakery\.example +yes +\S+$/m);
    expect(done).toMatch(/^Ownership +TXT +\S+ +no +sitebuilder-domain-verification=\S+$/m);
    expect(restarts()).toHaveLength(1);
  });

  it('changes nothing when the answer is no', async () => {
    const t = start(['email', 'restart', 'site_portfolio', 'edom_portfolio']);
    await t.waitForPrompt(/Go ahead\?/);
    t.send('n', 'Enter');
    const done = await t.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=130');
    expect(done).toContain('Cancelled; nothing was changed.');
    expect(restarts()).toHaveLength(1);
  });
});
