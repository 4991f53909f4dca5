// The scripting contract with the built binary (npm test builds it first): examples/publish.sh
// run unmodified through `sitebuilder emulator -- ./examples/publish.sh`, its question and
// create-a-site paths, and `echo y | sitebuilder …` confirming nothing.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { run } from '../helpers/run.js';
import { ID, itemsIn, rx, SHAPES, shapesEnv } from '../helpers/shapes.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/sitebuilder.js');
const tmp = mkdtempSync(join(tmpdir(), 'sb-scripting-'));
// Scripts call `sitebuilder` from PATH, as a user's would after `npm install -g`.
const shimDir = join(tmp, 'bin');

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

function sh(argv: string[], env: Record<string, string> = {}, stdin = ''): Promise<Spawned> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SITEBUILDER_')) base[k] = v;
  return new Promise((done, fail) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: ROOT,
      env: {
        ...base,
        PATH: `${shimDir}:${process.env.PATH}`,
        SITEBUILDER_CONFIG_DIR: join(tmp, 'config'),
        NO_COLOR: '1',
        // `sitebuilder emulator` answers in the shapes of this test run.
        ...shapesEnv(),
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

beforeAll(() => {
  mkdirSync(shimDir, { recursive: true });
  writeFileSync(join(shimDir, 'sitebuilder'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shimDir, 'sitebuilder'), 0o755);
});

// The runs mostly wait on polling intervals, so they run side by side.
// The example reads chat's NDJSON with jq (.ci/run installs it when missing).
const hasJq = spawnSync('sh', ['-c', 'command -v jq']).status === 0;

describe.skipIf(!hasJq).concurrent('examples/publish.sh', () => {
  // In the default shapes, test/e2e/docs-examples.test.ts runs this very line (the script's
  // header gives it) and checks the same.
  it.skipIf(SHAPES === 'default')(
    'runs unmodified through `sitebuilder emulator --`: sends the change, publishes, prints the live address',
    async () => {
      const res = await sh(['sitebuilder', 'emulator', '--speed', '60', '--', './examples/publish.sh'], {
        SITEBUILDER_SITE: 'site_bakery',
      });
      expect(res.stderr).toMatch(/Site site_bakery\n/);
      // A site with a history, on a machine that has followed none of its runs: whether a question
      // or a plan waits cannot be told, whatever the shapes (docs/real-service.md "What waits on a
      // site"); the script says --yes, so its change goes anyway.
      expect(res.stderr).not.toContain('Cannot tell whether');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sites\/site_bakery\/\n$/);
      expect(res.stderr).toMatch(/Published site_bakery\n$/);
    },
  );

  it('without --yes its message is refused on that site: exit 5, nothing sent', async () => {
    // A fresh emulator, as `sitebuilder emulator --` starts one (the line above runs through it).
    const emu = await startEmulator({ port: 0, speed: 60 });
    try {
      const res = await sh(['sitebuilder', 'chat', 'site_bakery', 'Add a page', '--json'], {
        SITEBUILDER_CONFIG_DIR: mkdtempSync(join(tmp, 'config-')),
        SITEBUILDER_BASE_URL: emu.baseUrl,
        SITEBUILDER_TOKEN: DEMO_TOKENS.full,
        SITEBUILDER_CLOCK_SPEED: '60',
      });
      expect(res.code).toBe(5);
      expect(res.stdout).not.toContain('"outcome"');
      expect(res.stderr).toContain('Cannot tell whether a question or plan waits on site_bakery');
      expect(emu.control.log({ method: 'list_messages' }).length).toBeGreaterThan(0);
      expect(emu.control.log({ method: 'send_message' })).toHaveLength(0);
    } finally {
      await emu.close();
    }
  });

  it('stops with exit 10 and the answering command when the agent asks a question; nothing is published', async () => {
    // A new site: its first build is followed here, so what waits after it is known.
    const emu = await startEmulator({ port: 0, speed: 60 });
    const ws = emu.control.createWorkspace({ name: 'Empty Studio', plan: 'paid' } as never);
    const res = await sh(['./examples/publish.sh', 'Add a page #ask'], {
      // Its own config: the runs it follows are remembered per site id, which fresh emulators share.
      SITEBUILDER_CONFIG_DIR: mkdtempSync(join(tmp, 'config-')),
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_WORKSPACE: ws._id,
      SITEBUILDER_CLOCK_SPEED: '60',
    }).finally(() => emu.close());
    expect(res.stderr).toMatch(rx()`Created site ${'site'}\n`);
    expect(res.code).toBe(10);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('The agent asks: ');
    expect(res.stderr).toMatch(rx('m')`^ {2}2\. .+\n {4}sitebuilder chat ${'site'} --choose 2 --job ${'job'}$`);
    expect(res.stderr).toMatch(rx('m')`^ {4}sitebuilder chat ${'site'} --answer '…' --job ${'job'}$`);
    expect(res.stderr).not.toContain('Published');
  });
});

describe.concurrent('against an emulator started by the test', () => {
  const fresh = ownEmulators({ speed: 60 });

  it('creates a site in a workspace without sites, waits for its first build, sends the change and publishes it; the address serves the new page', async () => {
    const emu = await fresh();
    const ws = emu.control.createWorkspace({ name: 'Empty Studio', plan: 'paid' } as never);
    const res = await sh(['./examples/publish.sh'], {
      SITEBUILDER_CONFIG_DIR: mkdtempSync(join(tmp, 'config-')),
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_WORKSPACE: ws._id,
      // The CLI's waits keep pace with the emulator's clock (docs/emulator.md).
      SITEBUILDER_CLOCK_SPEED: '60',
    });
    expect(res.stderr).toMatch(rx()`Created site ${'site'}\n`);
    expect(res.code).toBe(0);
    const url = res.stdout.trim();
    expect(url).toMatch(new RegExp(`^${emu.baseUrl}/sites/${ID('site')}/$`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect((await page.text()).toLowerCase()).toContain('opening hours');
    const methods = emu.control
      .log()
      .map((e) => e.method)
      .filter((m) => m && !['get_job', 'get_publish_status'].includes(m));
    // The end of the first build is noted with the history as it then is (list_messages); chat
    // reads the history first (list_messages): unchanged, nothing waits, and the message goes.
    expect(methods).toEqual([
      'list_sites',
      'create_site',
      'list_messages',
      'list_messages',
      'send_message',
      'list_messages',
      'publish_site',
    ]);
  });

  it('examples/publish.sh takes no workspace or site by order: with a choice and none named, exit 2 listing them', async () => {
    const emu = await fresh();
    const env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
    const none = await sh(['./examples/publish.sh'], env);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(
      /^Name the site to change with SITEBUILDER_SITE, or its workspace with SITEBUILDER_WORKSPACE; this token reaches:\n/,
    );
    expect(none.stderr).toContain('  ws_demo\tDemo Studio\n');
    expect(none.stderr).toContain('  ws_broke\tBroke Co\n');
    const inWorkspace = await sh(['./examples/publish.sh'], { ...env, SITEBUILDER_WORKSPACE: 'ws_demo' });
    expect(inWorkspace.code).toBe(2);
    expect(inWorkspace.stderr).toMatch(/^Name the site to change with SITEBUILDER_SITE; workspace ws_demo has:\n/);
    for (const site of ['site_bakery', 'site_portfolio', 'site_docs'])
      expect(inWorkspace.stderr).toContain(`  ${site}\t`);
    const methods = emu.control.log().map((e) => e.method);
    expect(methods).toEqual(['list_workspaces', 'list_sites']);
  });

  it('`echo y | sitebuilder backup restore …` confirms nothing: exit 5, the restore never sent', async () => {
    const emu = await fresh();
    const backups = await fetch(`${emu.baseUrl}/v1/list_backups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_TOKENS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'site_bakery' }),
    });
    const backupId = itemsIn('list_backups', ((await backups.json()) as any).data)[0]._id;
    // Not under CI (which CI runners set, and which is named as a reason of its own): the
    // reasons here are the pipes alone.
    const env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full, CI: '' };
    const res = await sh(['sitebuilder', 'backup', 'restore', 'site_bakery', backupId], env, 'y\n');
    expect(res.code).toBe(5);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /needs confirmation and no prompt is possible here \(standard input is not a terminal, standard error is not a terminal\); pass --yes to confirm\. Nothing was changed\./,
    );
    expect(emu.control.log({ method: 'restore_backup' })).toHaveLength(0);
  });

  it('piped output carries no colour, even under FORCE_COLOR or CLICOLOR_FORCE (docs/scripting.md)', async () => {
    const emu = await fresh();
    const env = {
      SITEBUILDER_BASE_URL: emu.baseUrl,
      SITEBUILDER_TOKEN: DEMO_TOKENS.full,
      SITEBUILDER_CLOCK_SPEED: '60',
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
    };
    const lines = [
      ['site', 'list'],
      ['site', 'view', 'site_bakery'],
      ['chat', 'site_bakery', 'Add an about page', '--yes'],
      ['publish', 'site_bakery'],
      ['publish', 'site_bakery', 'site_portfolio', '--no-wait'],
      ['email', 'domains', 'site_bakery'],
      ['site', 'view', 'site_nothing'],
      ['publish', 'site_bakery', '--idempotency-key', 'has space'],
    ];
    // The last two fail (exit 1 and 2): errors are piped too.
    const fails = (argv: string[]) => argv.includes('site_nothing') || argv.includes('has space');
    // The built binary, each line once with both variables: whatever reads either one (our
    // colour level, chalk, commander's own colours) is told to force colour.
    const force = { FORCE_COLOR: '3', CLICOLOR_FORCE: '1' };
    for (const argv of lines) {
      // sh() sets NO_COLOR for the other tests: unset here, so that only the pipe says no.
      const res = await sh(['env', '-u', 'NO_COLOR', 'sitebuilder', ...argv], { ...env, ...force });
      expect(res.stdout + res.stderr, `${argv.join(' ')}: ${res.stderr}`).not.toContain('\u001b');
      expect(res.code === 0, `${argv.join(' ')}: exit ${res.code}`).toBe(!fails(argv));
    }
    // Each variable alone, where only the colour level reads the environment it is given (the
    // CLI in this process, its output a pipe; its clock the emulator's, so no wait is real):
    // neither forces it, and neither hides behind the other.
    const clock = new FakeClock();
    const own = await fresh({ clock, speed: 1 });
    for (const alone of [{ FORCE_COLOR: '3' }, { CLICOLOR_FORCE: '1' }] as Record<string, string>[]) {
      for (const argv of lines) {
        const res = await run(argv, { env: { ...env, SITEBUILDER_BASE_URL: own.baseUrl, ...alone }, clock });
        const what = `${JSON.stringify(alone)} ${argv.join(' ')}: ${res.stderr}`;
        expect(res.stdout + res.stderr, what).not.toContain('\u001b');
        expect(res.code === 0, what).toBe(!fails(argv));
      }
    }
  });
});
