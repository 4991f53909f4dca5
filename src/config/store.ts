// Profiles and the token store: config.json in the configuration directory (docs/guide.md
// "Authentication and profiles"). Reads, on every API command, parse the file directly; writes
// are read-modify-write cycles under the file's lock with an atomic replace (private-dir.ts), so
// parallel processes lose no update and a logout is never undone by a concurrent write.
import { createRequire } from 'node:module';
import { UsageError } from '../errors.js';
import { sanitizeInline } from '../io/sanitize.js';
import { readPrivateFile, updatePrivateFile } from './private-dir.js';

export interface ProfileData {
  token?: string;
  baseUrl?: string;
  site?: string;
  /** Made by `emulator --setup`, which writes into no other profile (profile-owner.ts). */
  emulator?: boolean;
}

export interface ConfigData {
  currentProfile?: string;
  profiles?: Record<string, ProfileData>;
}

export const DEFAULT_PROFILE = 'default';
const FILE_NAME = 'config.json';

// node:os and node:path are left out of start-up (each builtin an ES module imports costs ~1 ms);
// os is asked only when HOME is unset.
function homeDir(): string {
  return (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();
}

export function configDir(env: Record<string, string | undefined>): string {
  if (env.SITEBUILDER_CONFIG_DIR) return env.SITEBUILDER_CONFIG_DIR;
  // Only an absolute XDG_CONFIG_HOME counts (the XDG spec); bin/sitebuilder.js reads XDG_CACHE_HOME so too.
  const xdg = env.XDG_CONFIG_HOME;
  const absolute = process.platform === 'win32' ? /^([\\/]|[a-zA-Z]:[\\/])/ : /^\//;
  const base = xdg && absolute.test(xdg) ? xdg : `${env.HOME || homeDir()}/.config`;
  return `${base}/sitebuilder`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The parsed file; undefined when the text is not a JSON object. */
function parseConfig(text: string): ConfigData | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return isRecord(parsed) ? (parsed as ConfigData) : undefined;
  } catch {
    return undefined;
  }
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;
  private cache?: ConfigData;

  constructor(dir: string) {
    this.dir = dir;
    this.path = `${dir}/${FILE_NAME}`;
  }

  /** The saved configuration; empty when there is none or it does not parse. */
  read(): ConfigData {
    if (!this.cache) {
      const text = readPrivateFile(this.dir, this.path);
      this.cache = (text === undefined ? undefined : parseConfig(text)) ?? {};
    }
    return this.cache;
  }

  profile(name: string): ProfileData {
    const profiles = this.read().profiles;
    return (isRecord(profiles) && Object.hasOwn(profiles, name) ? profiles[name] : undefined) ?? {};
  }

  /** The profile in force: --profile, then SITEBUILDER_PROFILE, then the saved current one. */
  resolveProfileName(flag: string | undefined, env: Record<string, string | undefined>): string {
    return flag || env.SITEBUILDER_PROFILE || this.read().currentProfile || DEFAULT_PROFILE;
  }

  /** Changes one profile (undefined removes it), leaving every other one as it is on disk now. */
  async updateProfile(name: string, change: (p: ProfileData) => ProfileData | undefined): Promise<void> {
    await this.update((data) => {
      const entries = Object.entries(isRecord(data.profiles) ? data.profiles : {});
      const at = entries.findIndex(([key]) => key === name);
      const next = change({ ...(at >= 0 ? entries[at][1] : {}) });
      if (at >= 0) entries.splice(at, 1, ...(next === undefined ? [] : [[name, next] as [string, ProfileData]]));
      else if (next !== undefined) entries.push([name, next]);
      // fromEntries keeps a profile named like an Object.prototype key (`__proto__`) as data.
      return { ...data, profiles: Object.fromEntries(entries) };
    });
  }

  /** Read-modify-write of the whole file under its lock: `change` sees what is on disk now. */
  async update(change: (d: ConfigData) => ConfigData): Promise<void> {
    let next: ConfigData = {};
    await updatePrivateFile(this.dir, FILE_NAME, (text) => {
      const current = text === undefined || !text.trim() ? {} : parseConfig(text);
      if (!current) {
        throw new UsageError(
          `${sanitizeInline(this.path)} is not valid JSON, and saving would lose what it holds; nothing was saved. Fix it, or move it away to start afresh.`,
        );
      }
      next = change(current);
      return `${JSON.stringify(next, null, 2)}\n`;
    });
    this.cache = next;
  }
}
