// The `site` argument most commands take, written once so that every help says the same thing
// about it (ctx.site() reads the default: src/context.ts).
import type { ArgumentDefinition } from '../../core/define.js';

/** `[site]`: may be left out when a default site is set. */
export const SITE_ARG = {
  name: 'site',
  description: 'site id (default: `site use` or SITEBUILDER_SITE)',
} as const satisfies ArgumentDefinition;

/** `<site>`: a command that acts on one of the site's things needs the site named. */
export const SITE_ID_ARG = {
  name: 'site',
  description: 'site id',
  required: true,
} as const satisfies ArgumentDefinition;
