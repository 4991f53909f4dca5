// The sites a batch command works on (docs/scripting.md "Many sites at once"): named as
// arguments, every site of a workspace (--workspace ID --all-sites), or one id a line on
// standard input (`-`). Every id is checked before anything is sent; a site named twice is
// worked on once.
import { text as readStream } from 'node:stream/consumers';
import { siteId } from '../../../service/sites.js';
import { paginate } from '../../../api/paginate.js';
import { tokenInForce, type Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { checkId } from '../../../input.js';
import type { FleetFlags } from './options.js';

async function fromStdin(ctx: Context, form: SitesForm): Promise<Array<{ id: string; line: number }>> {
  if (ctx.io.stdinIsTTY)
    throw new UsageError(
      `\`-\` reads site ids from standard input, one a line, but it is a terminal here; pipe them in: sitebuilder site list --workspace ID --all | cut -f1 | ${form('-')}`,
    );
  const text = await readStream(ctx.io.stdin);
  return text
    .split(/\r?\n/)
    .map((raw, i) => ({ id: raw.trim(), line: i + 1 }))
    .filter((l) => l.id !== '' && !l.id.startsWith('#'));
}

/** The batch command with these site arguments, as sentences show it (`sitebuilder chat - 'message'`). */
export type SitesForm = (sites: string) => string;

/**
 * The site ids, checked, each once, in the order given. Arguments and `-` do not go with
 * --all-sites; --all-sites needs --workspace (never every site the token reaches by accident).
 */
export async function gatherSites(ctx: Context, given: string[], o: FleetFlags, form: SitesForm): Promise<string[]> {
  if (o.workspace !== undefined && !o.allSites)
    throw new UsageError(`--workspace goes with --all-sites here: ${form('--workspace ID --all-sites')}`);
  if (o.allSites && o.workspace === undefined)
    throw new UsageError('--all-sites needs --workspace ID: the workspace whose sites to work on.');
  if (o.allSites && given.length > 0)
    throw new UsageError('Name sites either as arguments (or - for standard input) or with --all-sites, not both.');
  if (given.includes('-') && given.length > 1)
    throw new UsageError('`-` reads every site id from standard input; name no other site beside it.');
  const token = tokenInForce(ctx);
  let ids: string[];
  if (given[0] === '-') {
    const lines = await fromStdin(ctx, form);
    for (const l of lines) checkId(`The site id on line ${l.line} of standard input`, l.id, token);
    ids = lines.map((l) => l.id);
    if (ids.length === 0) throw new UsageError('Standard input named no site (one id a line); nothing was sent.');
  } else if (o.allSites) {
    ids = [];
    // --all-sites without --workspace was refused above.
    for await (const site of paginate(ctx.api(), 'list_sites', { workspaceId: o.workspace! }, { signal: ctx.signal }))
      if (siteId(site)) ids.push(siteId(site));
  } else {
    // Which one is wrong, by its place: the value itself may be unfit to print (a token).
    for (const [i, id] of given.entries())
      checkId(given.length > 1 ? `The site id in place ${i + 1}` : 'The site id', id, token);
    ids = given;
  }
  const unique = [...new Set(ids)];
  if (unique.length < ids.length)
    ctx.io.info(
      `${ids.length - unique.length} site id${ids.length - unique.length === 1 ? ' was' : 's were'} named twice; each site is worked on once.`,
    );
  return unique;
}
