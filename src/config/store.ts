// Profiles and the token store. The file is conf's JSON file; writes go through conf (loaded
// lazily: it costs ~40 ms of start-up because it loads ajv eagerly), while reads — on every
// API command — parse the same file directly. The file is 0600 in a 0700 directory, even
// when a looser one already existed.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface ProfileData {
  token?: string;
  baseUrl?: string;
  site?: string;
}

export interface ConfigData {
  currentProfile?: string;
  profiles?: Record<string, ProfileData>;
}

export const DEFAULT_PROFILE = 'default';
const FILE_NAME = 'config';

// node:os and node:path are left out of start-up (each builtin an ES module imports costs ~1 ms);
// os is asked only when HOME is unset.
function homeDir(): string {
  return (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();
}

export function configDir(env: Record<string, string | undefined>): string {
  if (env.SITEBUILDER_CONFIG_DIR) return env.SITEBUILDER_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || `${env.HOME || homeDir()}/.config`;
  return `${base}/sitebuilder`;
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;
  private cache?: ConfigData;

  constructor(dir: string) {
    this.dir = dir;
    this.path = `${dir}/${FILE_NAME}.json`;
  }

  read(): ConfigData {
    if (this.cache) return this.cache;
    let data: ConfigData = {};
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as ConfigData;
    } catch {
      // Missing or unreadable: an empty configuration.
    }
    this.cache = data;
    return data;
  }

  profile(name: string): ProfileData {
    return this.read().profiles?.[name] ?? {};
  }

  /** The profile in force: --profile, then SITEBUILDER_PROFILE, then the saved current one. */
  resolveProfileName(flag: string | undefined, env: Record<string, string | undefined>): string {
    return flag || env.SITEBUILDER_PROFILE || this.read().currentProfile || DEFAULT_PROFILE;
  }

  async updateProfile(name: string, change: (p: ProfileData) => ProfileData | undefined): Promise<void> {
    await this.update((data) => {
      const profiles = { ...(data.profiles ?? {}) };
      const next = change({ ...(profiles[name] ?? {}) });
      if (next === undefined) delete profiles[name];
      else profiles[name] = next;
      return { ...data, profiles };
    });
  }

  async update(change: (d: ConfigData) => ConfigData): Promise<void> {
    this.secureDir();
    const { default: Conf } = await import('conf');
    const conf = new Conf<Record<string, unknown>>({
      cwd: this.dir,
      configName: FILE_NAME,
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
    });
    const next = change(conf.store as ConfigData);
    conf.store = next as Record<string, unknown>;
    // conf sets the mode only when it creates the file: tighten one that already existed.
    chmodSync(this.path, 0o600);
    this.cache = next;
  }

  private secureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if ((statSync(this.dir).mode & 0o777) !== 0o700) chmodSync(this.dir, 0o700);
  }
}
