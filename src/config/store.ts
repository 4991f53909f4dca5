// Profiles and the token store: config.json in the configuration directory (docs/guide.md
// "Authentication and profiles"). Reads, on every API command, parse the file directly; writes
// are read-modify-write cycles under the file's lock with an atomic replace (private-dir.ts), so
// parallel processes lose no update and a logout is never undone by a concurrent write.
import { sanitizeInline } from '../io/sanitize.js';
import { ConfigBrokenError } from './errors.js';
import { readPrivateFile, updatePrivateFile } from './private-dir.js';

export interface ProfileData {
  token?: string;
  baseUrl?: string;
  site?: string;
  /** Made by `emulator --setup`, which writes into no other profile (profile-owner.ts). */
  emulator?: boolean;
  /** The process id of the emulator running for it, while it runs (commands/emulator/setup.ts). */
  emulatorPid?: number;
}

export interface ConfigData {
  currentProfile?: string;
  profiles?: Record<string, ProfileData>;
}

export const DEFAULT_PROFILE = 'default';
const FILE_NAME = 'config.json';

// node:os and node:path are left out of start-up (each builtin an ES module imports costs ~1 ms);
// os is asked only when HOME is unset: process.getBuiltinModule (Node 22.3 and later), else the
// bundle's require() (dist/ is CommonJS), not node:module's createRequire, whose module Node
// would load at start-up for it.
function homeDir(): string {
  return (process.getBuiltinModule?.('node:os') ?? (require('node:os') as typeof import('node:os'))).homedir();
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

/** The parsed file, or why it is not a configuration. */
function parseConfig(text: string): ConfigData | { problem: string } {
  try {
    const parsed = JSON.parse(text) as unknown;
    return isRecord(parsed) ? (parsed as ConfigData) : { problem: 'holds JSON that is not an object' };
  } catch (err) {
    return { problem: `is not valid JSON (${(err as Error).message}; it may have been cut short)` };
  }
}

const isProblem = (v: ConfigData | { problem: string }): v is { problem: string } =>
  typeof (v as { problem?: unknown }).problem === 'string';

/** The sentence for a config.json that cannot be read: what it is, that nothing is lost, and what to do. */
function brokenConfig(path: string, problem: string, outcome: string): ConfigBrokenError {
  const shown = sanitizeInline(path);
  return new ConfigBrokenError(
    `The configuration file ${shown} ${sanitizeInline(problem)}; ${outcome}, so the profiles and tokens it may hold are not lost. Move it aside (\`mv ${shown} ${shown}.broken\`) and run \`sitebuilder auth login\`, or fix it by hand.`,
  );
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;
  private cache?: ConfigData;

  constructor(dir: string) {
    this.dir = dir;
    this.path = `${dir}/${FILE_NAME}`;
  }

  /**
   * The saved configuration; empty when there is none (or the file is empty). A file that does
   * not parse is a ConfigBrokenError naming it, never read as "no token".
   */
  read(): ConfigData {
    if (!this.cache) {
      const text = readPrivateFile(this.dir, this.path);
      if (text === undefined || !text.trim()) this.cache = {};
      else {
        const parsed = parseConfig(text);
        if (isProblem(parsed)) throw brokenConfig(this.path, parsed.problem, 'nothing was read from it');
        this.cache = parsed;
      }
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
      if (isProblem(current)) throw brokenConfig(this.path, current.problem, 'nothing was saved over it');
      next = change(current);
      return `${JSON.stringify(next, null, 2)}\n`;
    });
    this.cache = next;
  }
}
