import { defineCommand } from '../../core/define.js';

export const logout = defineCommand({
  name: 'logout',
  summary: 'Forget the saved token of this profile',
  exitCodes: '0 done (also with nothing to forget)',
  examples: ['sitebuilder auth logout', 'sitebuilder auth logout --profile staging'],
  jsonFields: '{ profile, removed }',
  async run(_opts, ctx) {
    const profile = ctx.profileName();
    const had = Boolean(ctx.profile().token);
    if (had) {
      await ctx.config.updateProfile(profile, (p) => {
        const { token: _dropped, ...rest } = p;
        return rest;
      });
    }
    if (ctx.globals.json) ctx.io.printJson({ profile, removed: had });
    else ctx.io.info(had ? `Logged out of profile ${profile}.` : `Profile ${profile} had no saved token.`);
    if (ctx.env.SITEBUILDER_TOKEN) ctx.io.warn('SITEBUILDER_TOKEN is still set in this shell and is still used.');
  },
});
