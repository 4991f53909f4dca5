import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore, configDir } from '../../src/config/store.js';
import { tempConfigDir } from '../helpers/run.js';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('config store', () => {
  it('writes the file 0600 in a 0700 directory', async () => {
    const dir = tempConfigDir();
    const store = new ConfigStore(dir);
    await store.updateProfile('default', (p) => ({ ...p, token: 'sb_secret_token_value' }));
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8')).profiles.default.token).toBe('sb_secret_token_value');
  });

  it('tightens a looser file and directory that already existed', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { site: 's1' } } }), { mode: 0o644 });
    chmodSync(file, 0o644);
    const store = new ConfigStore(dir);
    await store.updateProfile('default', (p) => ({ ...p, token: 't' }));
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(store.profile('default')).toEqual({ site: 's1', token: 't' });
  });

  it('reads without conf and survives a missing or broken file', () => {
    const dir = tempConfigDir();
    expect(new ConfigStore(dir).read()).toEqual({});
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{not json');
    expect(new ConfigStore(dir).read()).toEqual({});
  });

  it('resolves the profile: flag, then SITEBUILDER_PROFILE, then the saved one', () => {
    const store = new ConfigStore(tempConfigDir());
    expect(store.resolveProfileName(undefined, {})).toBe('default');
    expect(store.resolveProfileName(undefined, { SITEBUILDER_PROFILE: 'ci' })).toBe('ci');
    expect(store.resolveProfileName('x', { SITEBUILDER_PROFILE: 'ci' })).toBe('x');
  });

  it('lives under SITEBUILDER_CONFIG_DIR, else XDG_CONFIG_HOME', () => {
    expect(configDir({ SITEBUILDER_CONFIG_DIR: '/tmp/a' })).toBe('/tmp/a');
    expect(configDir({ XDG_CONFIG_HOME: '/tmp/x' })).toBe('/tmp/x/sitebuilder');
    expect(configDir({ HOME: '/home/u' })).toBe('/home/u/.config/sitebuilder');
  });
});
