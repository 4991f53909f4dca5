// A restore changes the site, not what is live: backup restore and code-backup restore say so
// before (a consequence to confirm) and after (the command that publishes), in the same words.
import type { Context } from '../../context.js';
import { sb } from '../../io/shell.js';

/** The consequence a restore's confirmation lists. */
export const LIVE_SITE_KEPT = 'the live site keeps its last published version until you publish';

/** After a restore: the command that makes it live. */
export function sayNotPublished(ctx: Context, siteId: string): void {
  ctx.io.info(`The live site is unchanged until you run \`${sb('publish', siteId)}\`.`);
}
