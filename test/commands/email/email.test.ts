// `sitebuilder email domains` and `email restart` against a real emulator.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import type { Choice, Prompter } from '../../../src/io/prompter.js';
import { startMethodServer, type MethodServer } from '../../helpers/method-server.js';
import { run } from '../../helpers/run.js';
import { SHAPES } from '../../helpers/shapes.js';

let emu: RunningEmulator;
const clock = new FakeClock();
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
beforeEach(() => emu.control.reset());
afterAll(() => emu.close());

const email = (args: string[], opts: { tty?: boolean; prompter?: Prompter } = {}) =>
  run(['email', ...args], { env, clock, ...opts });
const restarts = () => emu.emulator.log.list({ method: 'restart_site_email_domain_verification' });

/** Answers the one confirmation with a fixed answer, and records the question. */
class ConfirmPrompter implements Prompter {
  asked: string[] = [];
  constructor(private readonly answer: boolean) {}
  canPrompt = () => true;
  require() {}
  input = async () => '';
  password = async () => '';
  async confirm(message: string) {
    this.asked.push(message);
    return this.answer;
  }
  select = async <T>(_m: string, choices: Choice<T>[]) => choices[0].value;
  multiselect = async <T>() => [] as T[];
}

describe('email domains', () => {
  it('prints one tab-separated row per DNS record when piped', async () => {
    const res = await email(['domains', 'site_bakery']);
    expect(res.code).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(8);
    expect(rows[0].slice(0, 5)).toEqual([
      'edom_bakery_mail',
      'mail.sunrisebakery.example',
      'success',
      'DKIM 1',
      'CNAME',
    ]);
    expect(rows[3].slice(3, 5)).toEqual(['Ownership', 'TXT']);
    expect(rows[4][2]).toBe('failed');
    expect(res.stdout).not.toMatch(/\u001b|\r/);
  });

  it('shows the status in words and a records table on a terminal', async () => {
    const res = await email(['domains', 'site_docs'], { tty: true });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('docs.acme.example');
    expect(res.stdout).toContain('Status: the mail provider is checking the records');
    expect(res.stdout).toContain('Status: the mail provider hit a temporary failure and keeps checking');
    expect(res.stdout).toContain('sitebuilder email restart site_docs edom_docs_updates');
    expect(res.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(
      /^DKIM 1 {2}CNAME\n {2}host {3}\S+\n {2}value {2}\S+$/m,
    );
    const blog = await email(['domains', 'site_blog'], { tty: true });
    expect(blog.stdout).toContain('paused until the workspace is on a paid plan again');
  });

  it('never cuts a value a person copies: a table where it fits, else a block a record, whole values', async () => {
    const lines = (out: string) => out.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
    const wide = await run(['email', 'domains', 'site_bakery'], { env, clock, tty: true, columns: 160 });
    expect(wide.stdout).toMatch(
      /^Ownership +TXT +_sitebuilder\.mail\.sunrisebakery\.example +sitebuilder-domain-verification=[0-9a-f]{24}$/m,
    );
    // Every host and value of the piped rows, each whole on a line of its own or beside its key.
    const piped = await email(['domains', 'site_bakery']);
    expect(piped.stdout).toMatch(/\tsb1k1\.[0-9a-f]{16}\.dkim\.mailprovider\.example$/m);
    const copied = piped.stdout
      .trim()
      .split('\n')
      .flatMap((row) => row.split('\t').slice(5));
    expect(copied).toHaveLength(16);
    for (const columns of [160, 90, 80, 60, 40]) {
      const res = await run(['email', 'domains', 'site_bakery'], { env, clock, tty: true, columns });
      const shown = lines(res.stdout);
      expect(res.stdout, `${columns}`).not.toContain('…');
      expect(res.stderr, `${columns}`).not.toContain('cut');
      for (const value of copied)
        expect(
          shown.some((l) => l.trim().split(/ {2,}/).includes(value)),
          `${value} at ${columns}`,
        ).toBe(true);
      // Wider than the terminal only where a value or a command stands alone, whole, for the terminal to fold.
      for (const l of shown.filter((l) => l.length > columns))
        expect(copied.includes(l) || l.trim().startsWith('sitebuilder ')).toBe(true);
    }
    const narrow = lines(
      (await run(['email', 'domains', 'site_bakery'], { env, clock, tty: true, columns: 80 })).stdout,
    );
    expect(narrow).toContain('DKIM 1  CNAME');
    expect(narrow.find((l) => l.startsWith('  host '))).toMatch(/^ {2}host {3}sb1k1\._domainkey\.mail\./);
  });

  it('prints one JSON document with --json', async () => {
    const doc = JSON.parse((await email(['domains', 'site_portfolio', '--json'])).stdout);
    expect(doc.projectId).toBe('site_portfolio');
    expect(doc.domains.map((d: { domainId: string }) => d.domainId)).toEqual([
      'edom_portfolio',
      'edom_portfolio_shared',
    ]);
    expect(doc.domains[0]).toMatchObject({
      dkimStatus: 'not_started',
      canRestart: true,
      statusText: expect.stringContaining('not started'),
    });
  });

  it('says so when a site has none', async () => {
    const res = await email(['domains', 'site_shop']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('has no email domains');
  });
});

describe('email restart', () => {
  it('needs confirmation: without a prompt and without --yes it stops with exit 5, sending nothing', async () => {
    const res = await email(['restart', 'site_bakery', 'edom_bakery_news']);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('--yes');
    expect(restarts()).toHaveLength(0);
  });

  it('with --yes prints the new records and marks which changed', async () => {
    const res = await email(['restart', 'site_bakery', 'edom_bakery_news', '--yes']);
    expect(res.code).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => [r[0], r[4]])).toEqual([
      ['DKIM 1', 'changed'],
      ['DKIM 2', 'changed'],
      ['DKIM 3', 'changed'],
      ['Ownership', 'unchanged'],
    ]);
    expect(res.stderr).toContain('3 records changed');
    expect(restarts()).toHaveLength(1);
    expect(restarts()[0].idempotencyKey).toBeTruthy();
  });

  it('asks on a terminal; yes restarts, no changes nothing', async () => {
    const yes = new ConfirmPrompter(true);
    const res = await email(['restart', 'site_portfolio', 'edom_portfolio'], { tty: true, prompter: yes });
    expect(res.code).toBe(0);
    expect(yes.asked).toEqual(['Go ahead?']);
    expect(res.stderr).toContain('the three DKIM records change');
    expect(res.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/^DKIM 1 {2}CNAME\n(?: {2}.*\n)*? {2}changed {2}yes$/m);
    const no = new ConfirmPrompter(false);
    const cancelled = await email(['restart', 'site_bakery', 'edom_bakery_news'], { tty: true, prompter: no });
    expect(cancelled.code).toBe(130);
    expect(restarts()).toHaveLength(1);
    // On a narrow terminal every value still shows whole, each record a block.
    const narrow = await run(['email', 'restart', 'site_bakery', 'edom_bakery_news', '--yes'], {
      env,
      clock,
      tty: true,
      columns: 60,
    });
    expect(narrow.code).toBe(0);
    expect(narrow.stdout).toMatch(/^ {2}value {4}sb\dk1\.[0-9a-f]+\.dkim\.mailprovider\.example$/m);
    expect(narrow.stdout).not.toContain('…');
    expect(restarts()).toHaveLength(2);
  });

  it('prints --json with the changed flags and the previous values', async () => {
    const doc = JSON.parse((await email(['restart', 'site_bakery', 'edom_bakery_news', '--yes', '--json'])).stdout);
    expect(doc).toMatchObject({ projectId: 'site_bakery', domainId: 'edom_bakery_news', dkimStatus: 'pending' });
    expect(doc.records.map((r: { changed: boolean }) => r.changed)).toEqual([true, true, true, false]);
    expect(doc.records[0].previousValue).toMatch(/dkim\.mailprovider\.example$/);
  });

  it('passes on the refusals of the service in its words, with their exit codes', async () => {
    const verifying = await email(['restart', 'site_docs', 'edom_docs', '--yes']);
    expect(verifying.code).toBe(1);
    // Listed as not restartable: said first; the service decides.
    expect(verifying.stderr).toMatch(
      /docs\.acme\.example is listed as not restartable now \(.+\); the service is likely to refuse\./,
    );
    expect(verifying.stderr).toContain(
      'The mail provider is still verifying this domain, so there is nothing to restart!',
    );
    const paused = await email(['restart', 'site_blog', 'edom_blog', '--yes']);
    expect(paused.code).toBe(4);
    expect(paused.stderr).toContain('Email domains are paused until the workspace is on a paid plan again!');
    const missing = await email(['restart']);
    expect(missing.code).toBe(2);
    const onDefault = await run(['email', 'restart', 'edom_nope', '--yes'], {
      env: { ...env, SITEBUILDER_SITE: 'site_bakery' },
      clock,
    });
    expect(onDefault.stderr).toContain('Site site_bakery has no email domain edom_nope');
    const unknown = await email(['restart', 'site_bakery', 'edom_nope', '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('email domains site_bakery');
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 7 when the workspace used its 10 restarts of the hour, saying how long to wait', async () => {
    emu.emulator.slice<{ restarts: Record<string, number[]> }>('email').restarts.ws_demo = Array.from(
      { length: 10 },
      () => clock.now() - 45 * 60_000,
    );
    const res = await email(['restart', 'site_bakery', 'edom_bakery_news', '--yes']);
    expect(res.code).toBe(7);
    expect(res.stderr).toContain(
      'This workspace has restarted email domain verification too many times this hour. Try again in 15 minutes.',
    );
  });
});

// A domain record of another shape: paused and verified said with other names or a status word.
// No emulator: the same answers in either project, so run in the default one only.
describe.skipIf(SHAPES === 'alternate')('email domains against answers of other shapes', () => {
  let server: MethodServer;
  beforeAll(async () => {
    server = await startMethodServer();
  });
  afterAll(() => server.close());

  it('reads paused and verified under their other names and status words', async () => {
    const domain = (id: string, extra: Record<string, unknown>) => ({
      domainId: id,
      name: `${id}.example`,
      dkimStatus: 'failed',
      canRestart: false,
      ...extra,
    });
    server.answers.get_site_email_settings = {
      emailDomains: {
        items: [
          domain('a', { isPaused: true }),
          domain('b', { status: 'PAUSED' }),
          domain('c', { dkimStatus: 'success', isVerified: true }),
          domain('d', { state: 'verified', dkimStatus: 'success' }),
          domain('e', {}),
        ],
      },
    };
    const res = await run(['email', 'domains', 'site_x', '--json'], {
      env: { SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full },
      clock,
    });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).domains.map((d: { statusText: string }) => d.statusText)).toEqual([
      'paused until the workspace is on a paid plan again',
      'paused until the workspace is on a paid plan again',
      'verified; nothing to do',
      'verified; nothing to do',
      'verification failed',
    ]);
  });
});
