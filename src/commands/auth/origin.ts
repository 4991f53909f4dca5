// Where the profile and the service's address in force come from: what `auth status` shows and
// what an unreachable address is said with, so that the way to change them is plain.
import type { Context } from '../../context.js';

export type AddressSource = 'flag' | 'env' | 'profile' | 'none';

/** Where the address in force comes from: --base-url, SITEBUILDER_BASE_URL, the profile, or nowhere. */
export function addressSource(ctx: Context): AddressSource {
  if (ctx.globals.baseUrl) return 'flag';
  if (ctx.env.SITEBUILDER_BASE_URL) return 'env';
  return ctx.profile().baseUrl ? 'profile' : 'none';
}

/** The same in words: "--base-url", "SITEBUILDER_BASE_URL", "profile work". */
export function addressOrigin(ctx: Context): string {
  const source = addressSource(ctx);
  if (source === 'flag') return '--base-url';
  if (source === 'env') return 'SITEBUILDER_BASE_URL';
  return source === 'profile' ? `profile ${ctx.profileName()}` : 'nowhere (none is set)';
}

export type ProfileSource = 'flag' | 'env' | 'current' | 'default';

/** Why this profile is the one in force: the way back to another one starts there. */
export function profileSource(ctx: Context): ProfileSource {
  if (ctx.globals.profile !== undefined) return 'flag';
  if (ctx.env.SITEBUILDER_PROFILE) return 'env';
  return ctx.config.read().currentProfile ? 'current' : 'default';
}
