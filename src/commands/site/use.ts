import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { type Context, tokenInForce } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkId } from '../../input.js';
import { requireSite } from './workspaces.js';

/** A default site that does not exist would only fail later: check it when a token is at hand. */
async function checkSiteExists(ctx: Context, site: string): Promise<void> {
  if (!ctx.token().token) {
    ctx.io.warn(`not logged in, so ${site} was not checked.`);
    return;
  }
  await requireSite(ctx.api(), site, ctx.signal, ' Nothing was saved.');
}

export const use = defineCommand({
  name: 'use',
  summary: 'Set the default site of this profile',
  description:
    'Set the site that commands use when <site> is left out (SITEBUILDER_SITE wins over it). The site is checked first, when a token is at hand. --clear forgets it.',
  exitCodes: `0 saved; ${SERVICE_EXITS}`,
  args: [
    { name: 'site', description: 'site id (its _id); on a terminal, picked from a list when left out', pick: false },
  ],
  options: [{ flags: '--clear', description: 'forget the default site' }],
  examples: [
    'sitebuilder site use site_123',
    'sitebuilder site use            # on a terminal: pick it from a list',
    'sitebuilder chat   # now talks to site_123',
    'sitebuilder site use --clear',
  ],
  jsonFields: '{ profile, site }',
  async run(opts, ctx) {
    if (opts.site !== undefined && opts.clear)
      throw new UsageError('Name a site or pass --clear, not both; nothing was changed.');
    const profile = ctx.profileName();
    let site = opts.clear ? undefined : opts.site;
    if (site === undefined && !opts.clear) {
      if (!ctx.prompter.canPrompt() || !ctx.token().token)
        throw new UsageError('Name the site to use by default, or pass --clear.');
      // Picked from the sites the token reaches: it exists.
      site = await (await import('../../pickers.js')).pickSite(ctx);
    } else if (site !== undefined) {
      checkId('The site id', site, tokenInForce(ctx));
      await checkSiteExists(ctx, site);
    }
    await ctx.config.updateProfile(profile, (p) => {
      const { site: _old, ...rest } = p;
      return site ? { ...rest, site } : rest;
    });
    if (ctx.globals.json) ctx.io.printJson({ profile, site: site ?? null });
    else
      ctx.io.info(
        site ? `Default site of profile ${profile} is now ${site}.` : `Profile ${profile} has no default site now.`,
      );
  },
});
