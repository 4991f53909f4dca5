// `emulator --setup`: a profile that points at the running emulator with its full-scope demo
// token, made the current profile, so that `sitebuilder chat site_bakery "…"` in another
// terminal reaches it with nothing to copy or export (README.md "Quick start"). When the
// emulator stops, the profile that was current before is current again, unless someone chose
// another one meanwhile; the profile itself stays, for the next start. A profile left current by
// an emulator that was killed (its address dead) is not taken for the one to go back to.
import { DEFAULT_PROFILE } from '../../config/store.js';
import type { Context } from '../../context.js';
import { checkProfileName } from '../../input.js';

export const SETUP_PROFILE = 'emulator';

export interface EmulatorProfile {
  name: string;
  /** The current profile before; undefined: none was saved (`default` is in force then). */
  before: string | undefined;
}

export async function setUpProfile(ctx: Context, baseUrl: string, token: string): Promise<EmulatorProfile> {
  const name = checkProfileName(ctx.globals.profile ?? SETUP_PROFILE, '--profile');
  let before: string | undefined;
  await ctx.config.updateProfile(name, (p) => ({ ...p, token, baseUrl }));
  await ctx.config.update((data) => {
    before = data.currentProfile === name ? undefined : data.currentProfile;
    return { ...data, currentProfile: name };
  });
  return { name, before };
}

/** Puts the profile current before back, when the emulator's is still the current one. */
export async function restoreProfile(ctx: Context, profile: EmulatorProfile): Promise<string | undefined> {
  let restored: string | undefined;
  await ctx.config.update((data) => {
    if (data.currentProfile !== profile.name) return data;
    const { currentProfile: _ours, ...rest } = data;
    restored = profile.before ?? DEFAULT_PROFILE;
    return profile.before === undefined ? rest : { ...rest, currentProfile: profile.before };
  });
  return restored;
}
