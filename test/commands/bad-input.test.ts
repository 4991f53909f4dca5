// Bad input costs nothing (docs/reliability.md): every local check runs before the first
// request, so each line below exits 2 with a sentence and the emulator's request log proves that
// nothing was sent. Values that cannot be ids are never echoed raw, and a token pasted where an id
// goes is neither sent nor shown.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { knowLatestRun } from './chat/helpers.js';
import { run } from '../helpers/run.js';
import { SHAPES } from '../helpers/shapes.js';

let emu: RunningEmulator;
const clock = new FakeClock();
let env: Record<string, string>;
let file: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
  file = join(mkdtempSync(join(tmpdir(), 'sb-bad-input-')), 'logo.png');
  writeFileSync(file, 'png');
});
afterAll(() => emu.close());

/** Runs a command line that must be refused locally: exit 2, a sentence on stderr, no request. */
async function refused(argv: string[], extraEnv: Record<string, string> = {}) {
  const before = emu.control.log().length;
  const res = await run(argv, { env: { ...env, ...extraEnv }, clock });
  expect(res.code, `${argv.join(' ').slice(0, 120)}: ${res.stderr}`).toBe(2);
  expect(res.stderr).toMatch(/^error: .+\n$/);
  expect(res.stdout).toBe('');
  expect(emu.control.log().length, `${argv.join(' ').slice(0, 120)} sent a request`).toBe(before);
  return res;
}

// A refusal before the first request meets no answer, so no shape: these run in the default
// project only (the alternate one would repeat them word for word). What reaches the service
// runs in both.
const ONCE = SHAPES === 'alternate';

describe.skipIf(ONCE)('bad input costs nothing', () => {
  it('site create checks everything before list_workspaces', async () => {
    await refused(['site', 'create', '--prompt', 'x'.repeat(500_001)]);
    await refused(['site', 'create', '--prompt', 'A bakery', '--idempotency-key', 'k'.repeat(256)]);
    await refused(['site', 'create', '--prompt', 'A bakery', '--idempotency-key', 'has space']);
    await refused(['site', 'create', '--prompt', 'A bakery', '--import-url', 'ftp://example.com']);
    await refused(['site', 'create', '--prompt', '   ']);
  });

  it.each([
    [['site', 'list', '--workspace', '']],
    [['--profile', '', 'workspace', 'list']],
    [['workspace', 'list', '--base-url', '']],
    [['workspace', 'list', '--token', '']],
    [['upload', 'site_bakery', 'FILE', '--folder', '']],
    [['publish', '']],
    [['publish', 'logs', 'site_bakery', '--deployment', '']],
    [['storage-restore', 'plan', 'site_bakery', '--backup', '', '--mode', 'full']],
    [['storage-backup', 'clear', 'site_bakery', '--backup', 'sbk_000002', '--backup', '', '--yes']],
  ])('refuses an empty value: %j', async (argv) => {
    const res = await refused(argv.map((a) => (a === 'FILE' ? file : a)));
    expect(res.stderr).toMatch(/empty|takes a backup id/);
  });

  it('refuses an idempotency key the service would refuse, and in a batch one with no room for KEY-SITE', async () => {
    for (const key of ['k'.repeat(256), 'has space', 'tab\tkey', 'caf\u00e9']) {
      await refused(['publish', 'site_bakery', '--idempotency-key', key]);
      await refused(['chat', 'site_bakery', 'Add a page', '--idempotency-key', key]);
    }
    // 201 to 255 characters: whole for one site, too long for KEY-SITE.
    const long = 'k'.repeat(201);
    const publish = await refused(['publish', 'site_bakery', 'site_portfolio', '--idempotency-key', long]);
    expect(publish.stderr).toContain('at most 200 characters');
    const chat = await refused(['chat', 'site_bakery', 'site_portfolio', 'Add a page', '--idempotency-key', long]);
    expect(chat.stderr).toContain('1 to 200 visible characters');
  });

  it.each([
    [['publish', 'site_bakery', '--wait', '--no-wait']],
    [['publish', 'site_bakery', '--no-wait', '--wait']],
    [['storage-restore', 'site_bakery', '--backup', 'sbk_000002', '--mode', 'full', '--wait', '--no-wait']],
    [['site', 'use', 'site_bakery', '--clear']],
  ])('refuses contradictory flags: %j', async (argv) => {
    const res = await refused(argv);
    expect(res.stderr).toMatch(/contradict|not both/);
  });

  // Each id-taking place, central: the site (ctx.site), an argument named …Id, an option taking an <id>.
  const places: Array<(id: string) => string[]> = [
    (id) => ['publish', id],
    (id) => ['site', 'view', id],
    (id) => ['site', 'use', id],
    (id) => ['chat', id, 'Add a page'],
    (id) => ['job', 'watch', 'site_bakery', id],
    (id) => ['job', 'cancel', 'site_bakery', '--job', id, '--yes'],
    (id) => ['queue', 'remove', 'site_bakery', id, '--yes'],
    (id) => ['storage-backup', 'browse', 'site_bakery', id],
    (id) => ['storage-restore', 'status', 'site_bakery', id],
    (id) => ['backup', 'restore', 'site_bakery', id, '--yes'],
    (id) => ['code-backup', 'restore', 'site_bakery', id, '--yes'],
    (id) => ['email', 'restart', 'site_bakery', id, '--yes'],
    (id) => ['site', 'list', '--workspace', id],
    (id) => ['publish', 'logs', 'site_bakery', '--deployment', id],
  ];
  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkYW5hIn0.c2lnbmF0dXJlLWhlcmU';
  const bad: Array<[string, string]> = [
    ['ESC', 'site_\u001b[2J\u001b]52;c;eA==\u0007bakery'],
    ['C0', 'site_bak\u0008\u0008ery'],
    ['U+202E', 'site_\u202eyrekab'],
    ['a zero-width joiner', 'site_bak\u200dery'],
    ['a tag character', 'site_bakery\u{e0041}'],
    ['a line separator', 'site_bakery\u2028'],
    ['a newline', 'site_bakery\nsite_blog'],
    ['100,000 characters', 's'.repeat(100_000)],
    ['the token in force', DEMO_TOKENS.full],
    ['a token with the prefix', 'sbt_live_0123456789abcdef0123'],
    ['a JWT', JWT],
    ['a random key', 'Xo5rdTU0p0O8zaXtCusjUHQMgqQpmsK3'],
  ];

  it.each(bad)('refuses an id with %s in every place, echoing nothing of it', async (_what, id) => {
    for (const place of places) {
      const res = await refused(place(id));
      expect(res.stderr).not.toContain(id);
      expect(res.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u);
      expect(res.stderr.length).toBeLessThan(400);
    }
  });

  it('refuses a bad default site from the environment or a token as the default site', async () => {
    const res = await refused(['publish'], { SITEBUILDER_SITE: 'site_\u001b[2Jbakery' });
    expect(res.stderr).toContain('SITEBUILDER_SITE');
    const token = await refused(['publish'], { SITEBUILDER_SITE: DEMO_TOKENS.readonly });
    expect(token.stderr).not.toContain(DEMO_TOKENS.readonly);
    expect(token.stderr).toContain('looks like an access token');
  });
});

describe('what is an id reaches the service', () => {
  it('takes real ids of both shapes, and leaves what is not an id alone', async () => {
    // A well-formed id that does not exist reaches the service, which says so (exit 1, not 2).
    for (const id of ['0123456789abcdef01234567', '3f2b8c1e-5d4a-4b7e-9c2d-1a2b3c4d5e6f', 'job_000999']) {
      const before = emu.control.log().length;
      const res = await run(['job', 'watch', 'site_bakery', id], { env, clock });
      expect(res.code, res.stderr).toBe(1);
      expect(emu.control.log().length).toBeGreaterThan(before);
    }
    // chat with a default site: the first word is a message (spaces, newlines), not a site id.
    // (This machine knows the site's latest run, so nothing stops the message but its form.)
    const configDir = join(mkdtempSync(join(tmpdir(), 'sb-bad-input-')), 'config');
    await knowLatestRun(emu, configDir, 'site_portfolio');
    const res = await run(['chat', 'Add a page\nwith a map', '--no-follow'], {
      env: { ...env, SITEBUILDER_SITE: 'site_portfolio' },
      clock,
      configDir,
    });
    expect(res.code, res.stderr).toBe(0);
  });
});
