// Site ids complete in bash (with and without bash-completion), zsh and fish, from the small
// file the CLI keeps as it lists, picks and creates sites (src/config/site-ids.ts), per profile,
// and the shells read it without starting node.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeSiteIds } from '../../../src/config/site-ids.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { run, tempConfigDir } from '../../helpers/run.js';
import { BASH_COMPLETION, bashComplete, fishComplete, hasShell, zshComplete } from '../../helpers/shells.js';
import { hasTmux, TmuxSession } from '../../helpers/tmux.js';

let emu: RunningEmulator;
let config: string;
let env: Record<string, string>;
/** The ids of each workspace's sites, as the emulator lists them (the alternate shapes seed one more). */
let DEMO: string[];
let FREE: string[];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, speed: 20 });
  config = tempConfigDir();
  // Two profiles reaching different workspaces; `demo` is the current one.
  for (const [profile, workspace] of [
    ['demo', 'ws_demo'],
    ['free', 'ws_free'],
  ]) {
    const login = await run(['auth', 'login', '--with-token', '--profile', profile, '--base-url', emu.baseUrl], {
      configDir: config,
      stdin: DEMO_TOKENS.full,
    });
    expect(login.code).toBe(0);
    const list = await run(['site', 'list', '--workspace', workspace, '--profile', profile, '--json'], {
      configDir: config,
    });
    expect(list.code).toBe(0);
    const ids = (JSON.parse(list.stdout) as Array<{ _id: string }>).map((site) => site._id).sort();
    if (workspace === 'ws_demo') DEMO = ids;
    else FREE = ids;
  }
  expect(DEMO).toEqual(expect.arrayContaining(['site_bakery', 'site_docs', 'site_portfolio']));
  expect(FREE).toEqual(['site_blog', 'site_recipes']);
  const text = readFileSync(join(config, 'config.json'), 'utf8');
  writeFileSync(join(config, 'config.json'), text.replace('{', '{\n  "currentProfile": "demo",'));
  // A shell with no node on its PATH: a `node` or `sitebuilder` started would leave a mark.
  const bin = join(mkdtempSync(join(tmpdir(), 'sb-no-node-')), 'bin');
  mkdirSync(bin);
  for (const name of ['node', 'sitebuilder'])
    writeFileSync(join(bin, name), `#!/bin/sh\ntouch '${bin}/started'\n`, { mode: 0o755 });
  env = { SITEBUILDER_CONFIG_DIR: config, PATH: `${bin}:/usr/bin:/bin` };
});
afterAll(() => emu.close());

const LINES = [
  'sitebuilder site view ',
  'sitebuilder chat site_p',
  'sitebuilder --profile free publish ',
  'sitebuilder -p free job watch ',
  'sitebuilder site view --profile=free ',
  'sitebuilder chat site_bakery ',
];
// `publish` takes a site or one of its verbs.
const expected = () => [DEMO, ['site_portfolio'], [...FREE, 'help', 'logs', 'status'].sort(), FREE, FREE, []];

describe('the ids the CLI saw', () => {
  it('are kept per profile beside the configuration, 0600, without the token', () => {
    const file = join(config, 'site-ids');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('demo\tsite_bakery\tSunrise Bakery\n');
    expect(text).toContain('free\tsite_blog\t');
    expect(text).not.toContain(DEMO_TOKENS.full);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('stay bounded, the most recent first, and only ids a shell takes as one word', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ id: `site_${i}`, name: `Site\t${i}` }));
    const text = mergeSiteIds('other\tsite_x\tX\n', 'p', [{ id: 'bad id;rm' }, { id: '$(x)' }, ...many]);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[0]).toBe('p\tsite_0\tSite 0');
    expect(lines[200]).toBe('other\tsite_x\tX');
    expect(mergeSiteIds(text, 'p', [{ id: 'site_250' }]).split('\n')[0]).toBe('p\tsite_250\t');
  });

  it('are not kept for a token from the environment, which belongs to no profile', async () => {
    const dir = tempConfigDir();
    const res = await run(['site', 'list'], {
      configDir: dir,
      env: { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full },
    });
    expect(res.code).toBe(0);
    expect(existsSync(join(dir, 'site-ids'))).toBe(false);
  });
});

describe('site ids complete, for the profile in force, without starting node', () => {
  const noNodeStarted = () => expect(existsSync(join(env.PATH.split(':')[0], 'started'))).toBe(false);

  it.skipIf(!existsSync(BASH_COMPLETION))('in bash with bash-completion', () => {
    expect(bashComplete(LINES, true, env)).toEqual(expected());
    noNodeStarted();
  });

  it('in bash without bash-completion', () => {
    expect(bashComplete(LINES, false, env)).toEqual(expected());
    noNodeStarted();
  });

  it.skipIf(!hasShell('zsh'))('in zsh', () => {
    expect(zshComplete(LINES, env)).toEqual(expected());
    noNodeStarted();
  });

  it.skipIf(!hasShell('fish'))('in fish, with the site names', () => {
    expect(fishComplete(LINES, env)).toEqual(expected());
    noNodeStarted();
  });

  it('from XDG_CONFIG_HOME when it is absolute, else from ~/.config (the XDG spec), in every shell', () => {
    const home = mkdtempSync(join(tmpdir(), 'sb-xdg-home-'));
    const xdg = mkdtempSync(join(tmpdir(), 'sb-xdg-config-'));
    cpSync(config, join(home, '.config', 'sitebuilder'), { recursive: true });
    cpSync(config, join(xdg, 'sitebuilder'), { recursive: true });
    // A relative one that exists from the shells' directory, holding other ids: it must not be read.
    const other = mkdtempSync(join(tmpdir(), 'sb-xdg-relative-'));
    mkdirSync(join(other, 'sitebuilder'));
    writeFileSync(join(other, 'sitebuilder', 'site-ids'), 'demo\tsite_relative\tWrong\n');
    const relativeXdg = relative(process.cwd(), other);
    expect(relativeXdg.startsWith('/')).toBe(false);
    const line = ['sitebuilder site view '];
    for (const XDG_CONFIG_HOME of [xdg, relativeXdg, `./${relativeXdg}`]) {
      // An empty SITEBUILDER_CONFIG_DIR counts as unset (the suite's own is a directory that does not exist).
      const shellEnv = { ...env, SITEBUILDER_CONFIG_DIR: '', HOME: home, XDG_CONFIG_HOME };
      expect(bashComplete(line, false, shellEnv), XDG_CONFIG_HOME).toEqual([DEMO]);
      if (hasShell('zsh')) expect(zshComplete(line, shellEnv), XDG_CONFIG_HOME).toEqual([DEMO]);
      if (hasShell('fish')) expect(fishComplete(line, shellEnv), XDG_CONFIG_HOME).toEqual([DEMO]);
    }
  });

  it('and SITEBUILDER_PROFILE picks the profile too', () => {
    expect(bashComplete(['sitebuilder site view '], false, { ...env, SITEBUILDER_PROFILE: 'free' })).toEqual([FREE]);
  });
});

describe.skipIf(!hasTmux)('site ids at a real terminal, Tab in bash', () => {
  const script = resolve(import.meta.dirname, '../../../completions/sitebuilder.bash');
  for (const cols of [80, 40]) {
    it(`complete one site, and list several, at ${cols} columns`, async () => {
      const t = new TmuxSession(
        ['bash', '--norc', '--noprofile'],
        { ...env, PS1: '$ ', TERM: 'xterm' },
        { cols, rows: 30 },
      );
      try {
        // Typed only once the script is loaded and the shell waits again (keys typed before would be echoed early).
        await t.waitFor(/^\$ $/m);
        await t.send(`source '${script}' && echo SOURCED`, 'Enter');
        await t.waitFor(/^SOURCED\n\$ $/m);
        await t.send('sitebuilder chat site_p', 'Tab');
        await t.waitFor(/^\$ sitebuilder chat site_portfolio $/m);
        await t.send('C-u', 'sitebuilder site view site_', 'Tab', 'Tab');
        // Every id of the current profile's sites that starts so, listed, each whole on the screen.
        const listed = await t.waitFor((screen) =>
          DEMO.filter((id) => id.startsWith('site_')).every((id) =>
            new RegExp(`(^|\\s)${id}(\\s|$)`, 'm').test(screen),
          ),
        );
        // The listing's rows (the command lines typed are the test's own).
        for (const line of listed.split('\n').filter((l) => !l.startsWith('$ ')))
          expect(line.length, line).toBeLessThanOrEqual(cols);
        noNodeStarted();
      } finally {
        t.kill();
      }
    });
  }
  const noNodeStarted = () => expect(existsSync(join(env.PATH.split(':')[0], 'started'))).toBe(false);
});
