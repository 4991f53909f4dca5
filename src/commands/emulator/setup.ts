// `emulator --setup`: a profile that points at the running emulator with its full-scope demo
// token, made the current profile, so that `sitebuilder chat site_bakery "…"` in another
// terminal reaches it with nothing to copy or export (README.md "Quick start"). It writes only
// into a profile it made itself (marked `"emulator": true`, config/profile-owner.ts), or one it
// creates now; any other saved profile, whatever it holds, is refused before the emulator starts,
// so no profile of the person's is ever changed. A second `--setup` for a profile whose emulator
// still runs is refused too (exit 2): it would take the profile from the first and, stopped, leave
// it pointing at a dead address. When the emulator stops, what it changed is put back: the profile
// that was current before is current again (unless someone chose another one meanwhile); the
// profile it made stays, marked, for the next start. A profile left current by an emulator that
// was killed (its address dead) is not taken for the one to go back to.
import { isLoopbackHost } from '../../api/base-url.js';
import { emulatorMayTake } from '../../config/profile-owner.js';
import { DEFAULT_PROFILE, type ProfileData } from '../../config/store.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkProfileName } from '../../input.js';
import { sb } from '../../io/shell.js';

export const SETUP_PROFILE = 'emulator';

export interface EmulatorProfile {
  name: string;
  /** The current profile before; undefined: none was saved (`default` is in force then). */
  before: string | undefined;
}

/** The profile --setup writes into: --profile, else `emulator`. */
export function setupProfileName(ctx: Context): string {
  return checkProfileName(ctx.globals.profile ?? SETUP_PROFILE, '--profile');
}

/** Refuses a saved profile that is not the emulator's, whatever it holds: nothing is written. */
export function checkSetupProfile(name: string, p: ProfileData | undefined): void {
  if (emulatorMayTake(p)) return;
  const held = p?.token
    ? `holds a token${p.baseUrl ? ` for ${p.baseUrl}` : ''}`
    : p?.baseUrl
      ? `holds the address ${p.baseUrl}`
      : 'is saved';
  const other = name === SETUP_PROFILE ? 'emulator-local' : SETUP_PROFILE;
  throw new UsageError(
    `Profile ${name} ${held} but \`sitebuilder emulator --setup\` did not make it; it is left as it is and the emulator was not started. Use a profile of the emulator's own: \`${sb('emulator --setup --profile', other)}\`.`,
  );
}

/** Whether a process of that id runs (one of another user's answers EPERM: it runs). */
function alive(pid: number | undefined): pid is number {
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** An emulator answers at the address: its control API's shapes (docs/emulator.md "Control API"). */
async function emulatorAnswers(baseUrl: string, signal: AbortSignal): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}/_emulator/shapes`);
  } catch {
    return false;
  }
  if (!isLoopbackHost(url.hostname)) return false;
  try {
    const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(2000)]) });
    const body = (await res.json().catch(() => undefined)) as { data?: { shapes?: unknown } } | undefined;
    return res.ok && typeof body?.data?.shapes === 'string';
  } catch {
    return false;
  }
}

/**
 * Refuses --setup for the emulator's profile while the emulator it points at still runs: one
 * request to its address. A dead address (an emulator stopped or killed) lets this one take over.
 */
export async function checkNotRunning(ctx: Context, name: string, p: ProfileData | undefined): Promise<void> {
  if (!p?.emulator || typeof p.baseUrl !== 'string') return;
  if (!(await emulatorAnswers(p.baseUrl, ctx.signal))) return;
  const pid = alive(p.emulatorPid) ? ` (pid ${p.emulatorPid})` : '';
  throw new UsageError(
    `An emulator${pid} already runs at ${p.baseUrl} for profile ${name}; use it as it is, stop it first (Ctrl-C in its terminal), start this one without --setup, or give it a profile of its own: \`${sb('emulator --setup --profile', name === SETUP_PROFILE ? 'emulator-2' : SETUP_PROFILE)}\`.`,
  );
}

export async function setUpProfile(ctx: Context, baseUrl: string, token: string): Promise<EmulatorProfile> {
  const name = setupProfileName(ctx);
  let before: string | undefined;
  // One locked write: the profile is checked again as it is on disk now.
  await ctx.config.update((data) => {
    const profiles = { ...(data.profiles ?? {}) };
    const existing = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
    checkSetupProfile(name, existing);
    profiles[name] = { ...existing, token, baseUrl, emulator: true, emulatorPid: process.pid };
    before = data.currentProfile === name ? undefined : data.currentProfile;
    return { ...data, profiles, currentProfile: name };
  });
  return { name, before };
}

/**
 * Puts back what setUpProfile changed: the profile current before, when the emulator's is still
 * the current one; its profile no longer names this process. Returns the profile current again,
 * if it was put back.
 */
export async function restoreProfile(ctx: Context, profile: EmulatorProfile): Promise<string | undefined> {
  let restored: string | undefined;
  await ctx.config.update((data) => {
    let next = data;
    const p = data.profiles?.[profile.name];
    if (p?.emulatorPid === process.pid) {
      const { emulatorPid: _pid, ...rest } = p;
      next = { ...next, profiles: { ...data.profiles, [profile.name]: rest } };
    }
    if (next.currentProfile !== profile.name) return next;
    const { currentProfile: _ours, ...others } = next;
    restored = profile.before ?? DEFAULT_PROFILE;
    return profile.before === undefined ? others : { ...others, currentProfile: profile.before };
  });
  return restored;
}
