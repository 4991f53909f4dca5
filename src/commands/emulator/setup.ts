// `emulator --setup`: a profile that points at the running emulator with its full-scope demo
// token, made the current profile, so that `sitebuilder chat site_bakery "…"` in another
// terminal reaches it with nothing to copy or export (README.md "Quick start"). It writes only
// into a profile it made itself (marked `"emulator": true`, config/profile-owner.ts), or one
// that holds no token and no address; any other is refused before the emulator starts, so no
// token of the person's is ever overwritten. When the emulator stops, what it changed is put
// back: the profile that was current before is current again (unless someone chose another one
// meanwhile), and a profile it borrowed loses the token and address again; the profile it made
// stays, marked, for the next start. A profile left current by an emulator that was killed (its
// address dead) is not taken for the one to go back to.
import { isLoopbackHost } from '../../api/base-url.js';
import { emulatorMayTake, isEmulatorProfile } from '../../config/profile-owner.js';
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
  /** The profile held neither token nor address and was not the emulator's: both go again at the stop. */
  borrowed?: { token: string; baseUrl: string };
}

const local = (baseUrl: string) => {
  try {
    return isLoopbackHost(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
};

/** The profile --setup writes into: --profile, else `emulator`. */
export function setupProfileName(ctx: Context): string {
  return checkProfileName(ctx.globals.profile ?? SETUP_PROFILE, '--profile');
}

/** Refuses a profile that is not the emulator's and holds a token or an address: nothing is written. */
export function checkSetupProfile(name: string, p: ProfileData | undefined, demoTokens: readonly string[]): void {
  if (emulatorMayTake(p, demoTokens, local)) return;
  const where = p?.baseUrl ? ` for ${p.baseUrl}` : '';
  const other = name === SETUP_PROFILE ? 'emulator-local' : SETUP_PROFILE;
  throw new UsageError(
    `Profile ${name} holds a token${where} that \`sitebuilder emulator --setup\` did not save; it is left as it is and the emulator was not started. Use a profile of the emulator's own: \`${sb('emulator --setup --profile', other)}\`.`,
  );
}

export async function setUpProfile(
  ctx: Context,
  baseUrl: string,
  token: string,
  demoTokens: readonly string[],
): Promise<EmulatorProfile> {
  const name = setupProfileName(ctx);
  let before: string | undefined;
  let borrowed: EmulatorProfile['borrowed'];
  // One locked write: the profile is checked again as it is on disk now.
  await ctx.config.update((data) => {
    const profiles = { ...(data.profiles ?? {}) };
    const existing = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
    checkSetupProfile(name, existing, demoTokens);
    if (existing && !isEmulatorProfile(existing) && !existing.token && !existing.baseUrl) borrowed = { token, baseUrl };
    profiles[name] = borrowed ? { ...existing, token, baseUrl } : { ...existing, token, baseUrl, emulator: true };
    before = data.currentProfile === name ? undefined : data.currentProfile;
    return { ...data, profiles, currentProfile: name };
  });
  return { name, before, borrowed };
}

/**
 * Puts back what setUpProfile changed: the profile current before, when the emulator's is still
 * the current one; a borrowed profile's token and address, when they are still the emulator's.
 * Returns the profile current again, if it was put back.
 */
export async function restoreProfile(ctx: Context, profile: EmulatorProfile): Promise<string | undefined> {
  let restored: string | undefined;
  await ctx.config.update((data) => {
    let next = data;
    const lent = profile.borrowed;
    const p = data.profiles?.[profile.name];
    if (lent && p && p.token === lent.token && p.baseUrl === lent.baseUrl) {
      const { token: _t, baseUrl: _b, ...rest } = p;
      next = { ...next, profiles: { ...data.profiles, [profile.name]: rest } };
    }
    if (next.currentProfile !== profile.name) return next;
    const { currentProfile: _ours, ...others } = next;
    restored = profile.before ?? DEFAULT_PROFILE;
    return profile.before === undefined ? others : { ...others, currentProfile: profile.before };
  });
  return restored;
}
