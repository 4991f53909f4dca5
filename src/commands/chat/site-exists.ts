// Whether the service knows a site by an id, for the rules that tell a site from a message
// (chat.ts): the service has no single-site read, so a read of the site's chat history stands
// for one (docs/scripting.md "Many sites at once").
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';

/** A 404 on the site's history says no; any other answer is left to the command. */
export async function siteExists(ctx: Context, id: string): Promise<boolean> {
  try {
    await ctx.api().call('list_messages', { projectId: id }, { signal: ctx.signal });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    if (err instanceof ApiError) return true;
    throw err;
  }
}
