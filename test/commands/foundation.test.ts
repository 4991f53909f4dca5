import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { run, tempConfigDir } from '../helpers/run.js';

let emu: RunningEmulator;
const clock = new FakeClock();
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
afterAll(() => emu.close());

describe('auth', () => {
  it('logs in with --with-token after checking the token, storing it 0600', async () => {
    const configDir = tempConfigDir();
    const login = await run(['auth', 'login', '--with-token', '--base-url', emu.baseUrl], {
      stdin: `${DEMO_TOKENS.full}\n`,
      configDir,
    });
    expect(login.stderr).toContain('Logged in to');
    expect(login.code).toBe(0);
    expect(login.stdout).toBe('');
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);

    const status = await run(['auth', 'status', '--json'], { configDir });
    expect(status.code).toBe(0);
    const doc = JSON.parse(status.stdout);
    expect(doc).toMatchObject({
      profile: 'default',
      baseUrl: emu.baseUrl,
      source: 'profile',
      valid: true,
      name: 'demo-full',
    });
    expect(doc.token).toMatch(/^sbt_demo_…4086$/);
    expect(status.stdout).not.toContain(DEMO_TOKENS.full);
    expect(doc.scopes).toContain('chat:write');
    expect(doc.rateLimit.limit).toBe(240);

    const token = await run(['auth', 'token'], { configDir });
    expect(token.stdout).toBe(`${DEMO_TOKENS.full}\n`);

    const logout = await run(['auth', 'logout'], { configDir });
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe('Logged out of profile default.\n');
    const again = await run(['auth', 'logout', '--quiet'], { configDir });
    expect([again.code, again.stderr]).toEqual([0, '']);
    const after = await run(['auth', 'status'], { configDir });
    expect(after.code).toBe(4);
    expect(after.stderr).toContain('Not logged in');
  });

  it('refuses a token the service does not accept and saves nothing', async () => {
    const configDir = tempConfigDir();
    const res = await run(['auth', 'login', '--with-token', '--base-url', emu.baseUrl], {
      stdin: DEMO_TOKENS.revoked,
      configDir,
    });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/did not accept this token .*nothing was saved/);
    expect(res.stderr).not.toContain(DEMO_TOKENS.revoked);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    // Not even the address was saved.
    const status = await run(['auth', 'status'], { configDir });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('No service address is set');
  });

  it('refuses to log in while SITEBUILDER_TOKEN is set', async () => {
    const res = await run(['auth', 'login', '--with-token'], { env, stdin: DEMO_TOKENS.full });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('SITEBUILDER_TOKEN is set');
  });

  it('without a TTY and without --with-token, names the flag (exit 5)', async () => {
    const res = await run(['auth', 'login', '--base-url', emu.baseUrl]);
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('--with-token');
  });

  it('prefers --token over SITEBUILDER_TOKEN over the profile', async () => {
    const res = await run(['auth', 'status', '--json', '--token', DEMO_TOKENS.readonly], { env });
    expect(JSON.parse(res.stdout)).toMatchObject({ source: 'flag', name: 'demo-readonly' });
    const res2 = await run(['auth', 'status', '--json'], { env });
    expect(JSON.parse(res2.stdout)).toMatchObject({ source: 'env', name: 'demo-full' });
  });

  it('says to log in when there is no token at all (exit 4), sending nothing', async () => {
    const before = emu.control.log().length;
    const res = await run(['workspace', 'list'], { env: { SITEBUILDER_BASE_URL: emu.baseUrl } });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('sitebuilder auth login');
    expect(emu.control.log().length).toBe(before);
  });

  it('turns a 401 into exit 4 with a hint to log in', async () => {
    const res = await run(['workspace', 'list'], { env: { ...env, SITEBUILDER_TOKEN: DEMO_TOKENS.expired } });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/SITEBUILDER_TOKEN holds this token.*\(request [\w-]+\)/);
  });
});

describe('workspace and site', () => {
  it('lists workspaces as tab-separated rows when piped, and as JSON', async () => {
    const plain = await run(['workspace', 'list'], { env });
    expect(plain.code).toBe(0);
    const rows = plain.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toContain('ws_demo');
    expect(plain.stdout).not.toMatch(/\u001b|\r/);
    const json = await run(['workspace', 'list', '--json'], { env });
    expect(JSON.parse(json.stdout).map((w: { _id: string }) => w._id)).toContain('ws_demo');
  });

  it('lists sites of a workspace, limited, and all of them streamed', async () => {
    emu.control.updateWorkspace('ws_demo', { siteLimit: 1000 });
    emu.control.addSites('ws_demo', { count: 120 });
    const limited = await run(['site', 'list', '--workspace', 'ws_demo', '--limit', '5'], { env });
    expect(limited.stdout.trim().split('\n')).toHaveLength(5);
    const all = await run(['site', 'list', '--workspace', 'ws_demo', '--all', '--json'], { env });
    const sites = JSON.parse(all.stdout);
    expect(sites.length).toBeGreaterThanOrEqual(123);
    expect(new Set(sites.map((s: { _id: string }) => s._id)).size).toBe(sites.length);
  });

  it('refuses --all with --limit, and a bad --limit, before sending', async () => {
    expect((await run(['site', 'list', '--all', '--limit', '3'], { env })).code).toBe(2);
    const bad = await run(['site', 'list', '--limit', 'ten'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit takes a whole number');
  });

  it('creates a site and prints its id and job', async () => {
    const res = await run(
      [
        'site',
        'create',
        '--workspace',
        'ws_demo',
        '--prompt',
        'A tea room in Kyoto with a menu',
        '--json',
        '--no-follow',
      ],
      { env },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(doc.workspaceId).toBe('ws_demo');
    expect(doc.site._id).toBeTruthy();
    expect(doc.jobId).toBeTruthy();
  });

  it('explains the site limit with the counts', async () => {
    emu.control.updateWorkspace('ws_free', { siteLimit: 2 });
    const res = await run(['site', 'create', '--workspace', 'ws_free', '--prompt', 'one more', '--no-follow'], { env });
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/already has 2 sites .*its plan allows.*\(request /);
  });

  it('explains an empty credit balance (402)', async () => {
    const res = await run(['site', 'create', '--workspace', 'ws_broke', '--prompt', 'a shop', '--no-follow'], { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('no AI credits left; nothing was created and nothing was charged');
  });

  it('refuses an over-long brief before sending', async () => {
    const before = emu.control.log().length;
    const res = await run(['site', 'create', '--workspace', 'ws_demo', '--prompt', 'x'.repeat(500_001)], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('longer than 500,000 characters');
    expect(emu.control.log().length).toBe(before);
  });

  it('sets a default site and uses it', async () => {
    const configDir = tempConfigDir();
    const use = await run(['site', 'use', 'site_bakery'], { env, configDir });
    expect(use.code).toBe(0);
    expect(use.stderr).toBe('Default site of profile default is now site_bakery.\n');
    // --quiet: only data and errors.
    const quiet = await run(['-q', 'site', 'use', 'site_bakery'], { env, configDir });
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']);
    const view = await run(['site', 'view', '--json'], { env, configDir });
    expect(view.code).toBe(0);
    expect(JSON.parse(view.stdout)).toMatchObject({ site: { _id: 'site_bakery' }, workspaceId: 'ws_demo' });
    const missing = await run(['site', 'view'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('site use');
  });

  it('refuses a default site that does not exist, saving nothing', async () => {
    const configDir = tempConfigDir();
    const res = await run(['site', 'use', 'site_nope'], { env, configDir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No site site_nope in the workspaces this token reaches');
    expect((await run(['site', 'view'], { env, configDir })).code).toBe(2);
  });

  it('names a profile that does not exist', async () => {
    const res = await run(['workspace', 'list', '-p', 'nope'], { env: { SITEBUILDER_BASE_URL: emu.baseUrl } });
    expect(res.code).toBe(4);
    expect(res.stderr).toContain('There is no profile "nope"');
    expect(res.stderr).toContain('auth login --profile nope');
  });

  it('keeps every key of auth status --json, whatever the outcome', async () => {
    const keys = [
      'profile',
      'profileSource',
      'baseUrl',
      'baseUrlSource',
      'source',
      'token',
      'valid',
      'name',
      'scopes',
      'workspaces',
      'expiresAt',
      'rateLimit',
      'error',
    ];
    const good = JSON.parse((await run(['auth', 'status', '--json'], { env })).stdout);
    const bad = JSON.parse(
      (await run(['auth', 'status', '--json'], { env: { ...env, SITEBUILDER_TOKEN: DEMO_TOKENS.revoked } })).stdout,
    );
    expect(Object.keys(good).sort()).toEqual([...keys].sort());
    expect(Object.keys(bad).sort()).toEqual([...keys].sort());
    expect(bad.valid).toBe(false);
    const plain = await run(['auth', 'status'], { env });
    expect(plain.stdout).toMatch(/Expires\tnever/);
  });

  it('says the profile and where the address comes from, even where nothing answers', async () => {
    const token = { SITEBUILDER_TOKEN: DEMO_TOKENS.full };
    const dead = await run(['auth', 'status', '--base-url', 'http://127.0.0.1:9'], { env: token, tty: true });
    expect(dead.code).toBe(1);
    expect(dead.stdout).toMatch(/^Profile +default \(no other is chosen\)$/m);
    expect(dead.stdout).toMatch(/^Service +http:\/\/127\.0\.0\.1:9 \(from --base-url\)$/m);
    expect(dead.stderr).toContain('Could not connect to http://127.0.0.1:9');
    const json = await run(['auth', 'status', '--json'], {
      env: { ...token, SITEBUILDER_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      profile: 'default',
      profileSource: 'default',
      baseUrl: 'http://127.0.0.1:9',
      baseUrlSource: 'env',
      valid: false,
    });
    expect(JSON.parse(json.stdout).error).toContain('Could not connect');
    const none = await run(['auth', 'status', '-p', 'work'], { env: token, tty: true });
    expect(none.code).toBe(2);
    expect(none.stdout).toMatch(/^Profile +work \(from --profile\)$/m);
    expect(none.stdout).toMatch(/^Service +none set: --base-url, SITEBUILDER_BASE_URL/m);
    expect(none.stderr).toContain('No service address is set');
  });

  it('a network failure names where the address came from: --base-url, SITEBUILDER_BASE_URL, the profile', async () => {
    const dead = 'http://127.0.0.1:9';
    const configDir = tempConfigDir();
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(configDir, 'config.json'),
      JSON.stringify({ profiles: { prod: { token: DEMO_TOKENS.full, baseUrl: dead } } }),
      { mode: 0o600 },
    );
    const said = async (argv: string[], extra: Record<string, string> = {}) => {
      const r = await run(['site', 'list', '--workspace', 'ws_demo', ...argv], { configDir, env: extra });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      return r.stderr.replace(/\s+/g, ' ');
    };
    const tail = 'and your network, then try again.';
    expect(await said(['--profile', 'prod'])).toContain(
      `Could not connect to ${dead} (connection refused) after 4 attempts; check the address (it comes from profile prod) ${tail}`,
    );
    expect(await said([], { SITEBUILDER_PROFILE: 'prod' })).toContain(
      `check the address (it comes from profile prod) ${tail}`,
    );
    const token = { SITEBUILDER_TOKEN: DEMO_TOKENS.full };
    expect(await said(['--base-url', dead], token)).toContain(`check the address (it comes from --base-url) ${tail}`);
    expect(await said(['--profile', 'prod', '--base-url', dead])).toContain('(it comes from --base-url)');
    expect(await said([], { ...token, SITEBUILDER_BASE_URL: dead })).toContain(
      `check the address (it comes from SITEBUILDER_BASE_URL) ${tail}`,
    );
    expect(await said(['--profile', 'prod'], { SITEBUILDER_BASE_URL: dead })).toContain(
      '(it comes from SITEBUILDER_BASE_URL)',
    );
  });

  it('prints errors as JSON on stderr with --json, and nothing on stdout', async () => {
    const res = await run(['site', 'view', 'site_nope', '--json'], { env });
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr).error).toMatchObject({ exitCode: 1 });
  });
});
