import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigDirError, ConfigFileError, ConfigLockedError } from '../../src/config/errors.js';
import { withFileLock } from '../../src/config/file-lock.js';
import { ConfigStore, configDir } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/run.js';

const mode = (p: string) => statSync(p).mode & 0o7777;
const isRoot = process.getuid?.() === 0;

/** A directory like /tmp: anyone may create files in it. */
function sharedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

/** The pid of a process that has ended (and been reaped). */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

describe('config store', () => {
  it('writes the file 0600 in a 0700 directory', async () => {
    const dir = tempConfigDir();
    const store = new ConfigStore(dir);
    await store.updateProfile('default', (p) => ({ ...p, token: 'sb_secret_token_value' }));
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles.default.token).toBe('sb_secret_token_value');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  describe('under umask 000', () => {
    let previous: number | undefined;
    afterEach(() => {
      if (previous !== undefined) process.umask(previous);
    });
    it('still creates the directory 0700 and the file 0600', async () => {
      previous = process.umask(0);
      const dir = join(tempConfigDir(), 'nested');
      const store = new ConfigStore(dir);
      await store.updateProfile('default', (p) => ({ ...p, site: 's1' }));
      expect(mode(dir)).toBe(0o700);
      expect(mode(store.path)).toBe(0o600);
    });
  });

  it('tightens a directory of its own that others can only read, and a 0644 file', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { site: 's1' } } }));
    chmodSync(file, 0o644);
    const store = new ConfigStore(dir);
    await store.updateProfile('default', (p) => ({ ...p, token: 't' }));
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(store.profile('default')).toEqual({ site: 's1', token: 't' });
  });

  it('refuses a shared 1777 directory with a sentence, saving nothing and changing no mode', async () => {
    const dir = sharedDir();
    const err = await new ConfigStore(dir).updateProfile('default', () => ({ token: 'sb_secret' })).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigDirError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(
      `The configuration directory ${dir} can be written by other users (mode 1777), so someone else could replace the saved token or its address; nothing was saved there. Use a private directory: \`chmod 700 ${dir}\` if only you use it, or set SITEBUILDER_CONFIG_DIR to a new directory (sitebuilder creates it with mode 0700).`,
    );
    expect(mode(dir)).toBe(0o1777);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads nothing from a shared directory: empty when no file is there, refused when one is', () => {
    const dir = sharedDir();
    expect(new ConfigStore(dir).read()).toEqual({});
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: 'https://evil' } } }));
    const err = (() => {
      try {
        new ConfigStore(dir).read();
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(ConfigDirError);
    expect(err?.message).toContain('can be written by other users (mode 1777)');
    expect(err?.message).toContain('nothing was read from it');
  });

  it('refuses a file others can write, even in a private directory', () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o666);
    expect(() => new ConfigStore(dir).read()).toThrow(
      `The configuration file ${file} can be written by other users (mode 0666), so someone else could replace the saved token or its address; it was not read. Use a private directory: \`chmod 600 ${file}\``,
    );
  });

  it.skipIf(!isRoot)('refuses a directory that belongs to another user', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, 65534, 65534);
    const err = await new ConfigStore(dir).updateProfile('default', () => ({ site: 's' })).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigDirError);
    expect(err.message).toContain('belongs to another user (uid 65534)');
    expect(err.message).toContain('set SITEBUILDER_CONFIG_DIR to a directory of your own');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('turns a refusal of the file system into one sentence, exit 1', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sitebuilder-test-')), 'a-file');
    writeFileSync(file, '');
    const dir = join(file, 'config');
    const err = await new ConfigStore(dir).updateProfile('default', () => ({ site: 's' })).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(
      new RegExp(
        `^The configuration in ${dir} could not be saved \\(ENOTDIR: not a directory, mkdir '.*'\\); nothing was saved\\. Check that the directory is yours and writable, or set SITEBUILDER_CONFIG_DIR to another one\\.$`,
      ),
    );
  });

  it('reads without a lock; a missing or empty file is no configuration, a broken one is named', () => {
    const dir = tempConfigDir();
    expect(new ConfigStore(dir).read()).toEqual({});
    expect(existsSync(dir)).toBe(false);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), ' \n');
    expect(new ConfigStore(dir).read()).toEqual({});
    for (const text of ['{not json', '{"profiles": {"prod": {"tok', '[1,2]', '\u0000\u0000\u0000']) {
      writeFileSync(join(dir, 'config.json'), text);
      const err = (() => {
        try {
          new ConfigStore(dir).read();
        } catch (e) {
          return e as Error & { exitCode: number };
        }
      })();
      expect(err?.exitCode).toBe(2);
      expect(err?.message).toMatch(
        /^The configuration file .*config\.json (is not valid JSON|holds JSON that is not an object)/,
      );
      expect(err?.message).toContain('nothing was read from it');
      expect(err?.message).toContain('sitebuilder auth login');
    }
  });

  it('does not save over a file it cannot parse (it would lose the other profiles)', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"profiles": {"prod": {"token": "x"}},}');
    const err = await new ConfigStore(dir).updateProfile('default', () => ({ site: 's' })).catch((e) => e);
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(
      new RegExp(`^The configuration file ${file.replace(/[.*+?^$()|[\]\\]/g, '\\$&')} is not valid JSON \\(`),
    );
    expect(err.message).toContain('nothing was saved over it, so the profiles and tokens it may hold are not lost');
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": {"prod": {"token": "x"}},}');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('changes one profile and keeps the others as they are on disk, not as first read', async () => {
    const dir = tempConfigDir();
    const a = new ConfigStore(dir);
    const b = new ConfigStore(dir);
    expect(a.read()).toEqual({});
    await b.updateProfile('prod', () => ({ token: 'tp' }));
    await a.updateProfile('dev', () => ({ site: 's' }));
    expect(new ConfigStore(dir).read().profiles).toEqual({ prod: { token: 'tp' }, dev: { site: 's' } });
    await a.updateProfile('prod', () => undefined);
    expect(new ConfigStore(dir).read().profiles).toEqual({ dev: { site: 's' } });
  });

  it('keeps a profile named like an Object.prototype key as plain data', async () => {
    const dir = tempConfigDir();
    const store = new ConfigStore(dir);
    await store.updateProfile('__proto__', () => ({ site: 's' }));
    const fresh = new ConfigStore(dir);
    expect(fresh.profile('__proto__')).toEqual({ site: 's' });
    expect(fresh.profile('constructor')).toEqual({});
    expect(Object.keys(JSON.parse(readFileSync(store.path, 'utf8')).profiles)).toEqual(['__proto__']);
  });

  it('resolves the profile: flag, then SITEBUILDER_PROFILE, then the saved one', () => {
    const store = new ConfigStore(tempConfigDir());
    expect(store.resolveProfileName(undefined, {})).toBe('default');
    expect(store.resolveProfileName(undefined, { SITEBUILDER_PROFILE: 'ci' })).toBe('ci');
    expect(store.resolveProfileName('x', { SITEBUILDER_PROFILE: 'ci' })).toBe('x');
  });

  it('lives under SITEBUILDER_CONFIG_DIR, else XDG_CONFIG_HOME', () => {
    expect(configDir({ SITEBUILDER_CONFIG_DIR: '/tmp/a' })).toBe('/tmp/a');
    expect(configDir({ XDG_CONFIG_HOME: '/tmp/x', HOME: '/home/u' })).toBe('/tmp/x/sitebuilder');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/sitebuilder');
  });

  it.each(['relative', './x', '~/x', 'x/../y'])(
    'ignores a relative XDG_CONFIG_HOME (%s), as the XDG spec says',
    (xdg) => {
      expect(configDir({ XDG_CONFIG_HOME: xdg, HOME: '/home/u' })).toBe('/home/u/.config/sitebuilder');
    },
  );
});

describe('the config lock', () => {
  const lockIn = () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { dir, lock: join(dir, 'config.json.lock') };
  };

  it('takes over a lock whose owner on this host is gone, whatever its age', async () => {
    const { dir, lock } = lockIn();
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: hostname(), at: Date.now(), id: 'x' }));
    await new ConfigStore(dir).updateProfile('default', () => ({ site: 's' }));
    expect(new ConfigStore(dir).profile('default')).toEqual({ site: 's' });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('takes over a lock without an owner it can read once it is older than a few seconds', async () => {
    const { lock } = lockIn();
    writeFileSync(lock, '');
    const old = (Date.now() - 6_000) / 1000;
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, () => 'ran', { waitMs: 0 })).toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a live owner and then refuses with a sentence, touching nothing', async () => {
    const { lock } = lockIn();
    const live = JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), id: 'live' });
    writeFileSync(lock, live);
    let ran = false;
    const err = await withFileLock(lock, () => (ran = true), { waitMs: 30 }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigLockedError);
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(
      new RegExp(
        `^The configuration is locked by process ${process.pid} \\(${lock}\\) for \\d+ s; nothing was saved\\.`,
      ),
    );
    expect(ran).toBe(false);
    expect(readFileSync(lock, 'utf8')).toBe(live);
  });

  it('does not take over a fresh lock it cannot read (its owner may be writing it)', async () => {
    const { lock } = lockIn();
    writeFileSync(lock, '');
    const err = await withFileLock(lock, () => 'ran', { waitMs: 20 }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigLockedError);
    expect(err.message).toContain('locked by another process');
  });

  it('runs holders one after another and releases the lock when the holder throws', async () => {
    const { lock } = lockIn();
    const order: string[] = [];
    const hold = (name: string) =>
      withFileLock(lock, async () => {
        order.push(`${name}+`);
        await new Promise((r) => setImmediate(r));
        order.push(`${name}-`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    expect(order.join(' ')).toMatch(/^(\w)\+ \1- (\w)\+ \2- (\w)\+ \3-$/);
    await expect(
      withFileLock(lock, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });
});
