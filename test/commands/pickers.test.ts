// Pickers where gh has them: on a terminal, a site left out with no default, or the workspace of
// `site create` among several, is picked from a list; without a terminal, exit 2 naming the
// argument or the flag, with nothing sent that changes anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { run, tempConfigDir } from '../helpers/run.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';

let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
afterAll(() => emu.close());

const creates = () => emu.emulator.log.list({ method: 'create_site' }).length;

describe('a site left out', () => {
  it('is picked on a terminal, among the sites of every workspace the token reaches', async () => {
    const prompter = new ScriptedPrompter([{ select: / site_portfolio$/ }]);
    const res = await run(['site', 'view'], { env, tty: true, prompter });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Which site?']);
    expect(res.stdout).toMatch(/^ID +site_portfolio$/m);
  });

  it('is not asked for when a default site is set, nor when a site is named', async () => {
    const prompter = new ScriptedPrompter([]);
    const withDefault = await run(['site', 'view'], {
      env: { ...env, SITEBUILDER_SITE: 'site_docs' },
      tty: true,
      prompter,
    });
    expect(withDefault.stdout).toMatch(/^ID +site_docs$/m);
    const named = await run(['site', 'view', 'site_bakery'], { env, tty: true, prompter });
    expect(named.stdout).toMatch(/^ID +site_bakery$/m);
    expect(prompter.asked).toEqual([]);
  });

  it('without a terminal is exit 2 naming the argument, as before', async () => {
    const res = await run(['site', 'view'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      'Name a site (`sitebuilder site list` shows them), or set a default with `sitebuilder site use SITE`.',
    );
  });

  it('`site use` picks one on a terminal, even when a default is set, and saves it', async () => {
    const configDir = tempConfigDir();
    const login = await run(['auth', 'login', '--with-token', '--base-url', emu.baseUrl], {
      configDir,
      stdin: DEMO_TOKENS.full,
    });
    expect(login.code).toBe(0);
    await run(['site', 'use', 'site_bakery'], { configDir });
    const prompter = new ScriptedPrompter([{ select: / site_blog$/ }]);
    const res = await run(['site', 'use'], { configDir, tty: true, prompter });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('Default site of profile default is now site_blog.');
    const cleared = await run(['site', 'use', '--clear'], { configDir, tty: true, prompter });
    expect(cleared.code).toBe(0);
    expect(prompter.asked).toEqual(['Which site?']);
    const piped = await run(['site', 'use'], { configDir });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('Name the site to use by default, or pass --clear.');
  });
});

describe('site create among several workspaces', () => {
  it('picks the workspace on a terminal', async () => {
    const prompter = new ScriptedPrompter([{ select: /^Demo Studio +\(paid plan, \d+ credits\) +ws_demo$/ }]);
    const res = await run(['site', 'create', '--prompt', 'A flower shop', '--no-follow'], {
      env,
      tty: true,
      prompter,
    });
    expect(res.code).toBe(0);
    expect(prompter.asked).toEqual(['Which workspace?']);
    expect(res.stderr).toMatch(/Created site \S+ in workspace ws_demo/);
  });

  it('without a terminal is exit 2 naming --workspace, nothing created', async () => {
    const before = creates();
    const res = await run(['site', 'create', '--prompt', 'A flower shop', '--no-follow'], { env });
    expect(res.code).toBe(2);
    // In the service's order, which is not shown: each of them named.
    const named = /The token reaches 4 workspaces; name one with --workspace \(([^)]*)\)\./.exec(res.stderr);
    expect(named?.[1].split(', ').sort()).toEqual(['ws_broke', 'ws_capped', 'ws_demo', 'ws_free']);
    expect(creates()).toBe(before);
  });

  it('takes the only workspace of a token that reaches one, without asking', async () => {
    const prompter = new ScriptedPrompter([]);
    const res = await run(['site', 'create', '--prompt', 'A flower shop', '--no-follow'], {
      env: { ...env, SITEBUILDER_TOKEN: DEMO_TOKENS.narrow },
      tty: true,
      prompter,
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/in workspace ws_demo/);
    expect(prompter.asked).toEqual([]);
  });
});
