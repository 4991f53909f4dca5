// `email restart` in a real terminal (tmux), driving the built binary against an emulator on
// port 0: the confirmation names what changes, yes restarts and shows the new records marked,
// no changes nothing (exit 130). At 80 and 40 columns, every DNS value shows whole: a person
// copies it into the DNS host's form.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { expectFits } from '../helpers/screen.js';
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

function start(args: string[], cols = 120): TmuxSession {
  const session = new TmuxSession(
    [process.execPath, BIN, ...args],
    {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'sb-tty-')), 'config'),
    },
    { cols, rows: 50 },
  );
  sessions.push(session);
  return session;
}

const restarts = () => emu.emulator.log.list({ method: 'restart_site_email_domain_verification' });

describe.skipIf(!hasTmux)('email restart in a terminal', () => {
  for (const cols of [80, 40]) {
    it(`asks first, then prints the new records whole and marks which changed, at ${cols} columns`, async () => {
      emu.control.reset();
      const before = restarts().length;
      const t = start(['email', 'restart', 'site_bakery', 'edom_bakery_news'], cols);
      const asked = await t.waitForPrompt(/Go ahead\?/);
      expect(asked.replace(/\s*\n\s*/g, ' ')).toContain(
        'Restart the email domain verification of news.sunrisebakery.example (edom_bakery_news) on site site_bakery:',
      );
      expect(restarts()).toHaveLength(before);
      // A confirmation needs Enter: the `y` alone shows, and answers nothing yet.
      await t.send('y');
      await t.waitForPrompt(/^\? Go ahead\? \(y\/N\) y\s*$/);
      expect(restarts()).toHaveLength(before);
      await t.send('Enter');
      const done = await t.waitFor(/EXIT=\d+/);
      expect(done).toContain('EXIT=0');
      expect(done.replace(/\s*\n\s*/g, ' ')).toContain('3 records changed: replace them at your DNS host.');
      expect(done).toMatch(/^DKIM 1 {2}CNAME$/m);
      expect(done).toMatch(/^ {2}changed {2}yes$/m);
      expect(done).toMatch(/^ {2}changed {2}no$/m);
      expect(done).not.toContain('…');
      // Every value the service sent, whole on one line of the screen.
      const domains = await fetch(`${emu.baseUrl}/_emulator/email-domains`).then((r) => r.text());
      const values = domains.match(/sb2k[123]\.[0-9a-f]+\.dkim\.mailprovider\.example/g) ?? [];
      expect(values.length).toBeGreaterThanOrEqual(3);
      for (const v of values) expect(done.split('\n').some((l) => l.trim().split(/ {2,}/).includes(v))).toBe(true);
      expectFits(done, cols, { words: values });
      expect(restarts()).toHaveLength(before + 1);
    });
  }

  it('changes nothing when the answer is no', async () => {
    const before = restarts().length;
    const t = start(['email', 'restart', 'site_portfolio', 'edom_portfolio']);
    await t.waitForPrompt(/Go ahead\?/);
    await t.send('n', 'Enter');
    const done = await t.waitFor(/EXIT=\d+/);
    expect(done).toContain('EXIT=130');
    expect(done).toContain('Cancelled; nothing was changed.');
    expect(restarts()).toHaveLength(before);
  });
});
