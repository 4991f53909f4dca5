// Where the profile and the service's address in force come from: what `auth status` shows and
// what an unreachable address is said with, so that the way to change them is plain.
// What they are read from: a Context (context.ts, whose client names the address's origin when
// nothing answers there) has it all; typed here by shape so that context.ts can import this file.
interface Sources {
  globals: { baseUrl?: string; profile?: string };
  env: Record<string, string | undefined>;
  profile(): { baseUrl?: string };
  profileName(): string;
  config: { read(): { currentProfile?: string } };
}

export type AddressSource = 'flag' | 'env' | 'profile' | 'none';

/** Where the address in force comes from: --base-url, SITEBUILDER_BASE_URL, the profile, or nowhere. */
export function addressSource(ctx: Sources): AddressSource {
  if (ctx.globals.baseUrl) return 'flag';
  if (ctx.env.SITEBUILDER_BASE_URL) return 'env';
  return ctx.profile().baseUrl ? 'profile' : 'none';
}

/** The same in words: "--base-url", "SITEBUILDER_BASE_URL", "profile work". */
export function addressOrigin(ctx: Sources): string {
  const source = addressSource(ctx);
  if (source === 'flag') return '--base-url';
  if (source === 'env') return 'SITEBUILDER_BASE_URL';
  return source === 'profile' ? `profile ${ctx.profileName()}` : 'nowhere (none is set)';
}

export type ProfileSource = 'flag' | 'env' | 'current' | 'default';

/** Why this profile is the one in force: the way back to another one starts there. */
export function profileSource(ctx: Sources): ProfileSource {
  if (ctx.globals.profile !== undefined) return 'flag';
  if (ctx.env.SITEBUILDER_PROFILE) return 'env';
  return ctx.config.read().currentProfile ? 'current' : 'default';
}
