// Pickers where gh has them: on a terminal, a site or a workspace left out is picked from a list
// that typing filters (io/prompter.ts). The lists load with the keys guarded (io/keyguard.ts),
// so nothing typed meanwhile becomes the filter or the pick. Without a terminal the caller's
// own refusal names the argument or flag (exit 2).
import { itemsOf, paginate } from './api/paginate.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { guardKeys } from './io/keyguard.js';
import type { Choice } from './io/prompter.js';
import { known } from './service/read.js';
import { readSite, readWorkspace, type WorkspaceRecord } from './service/sites.js';
import { sanitizeInline } from './io/sanitize.js';
import { fitChoices } from './io/choice-layout.js';
import { sayCut } from './io/print.js';

/** Sites loaded for one pick at most; past it, the workspace is picked first. */
export const PICK_MAX = 500;

interface Workspace {
  id: string;
  name: string;
  record: WorkspaceRecord;
}

interface Site {
  id: string;
  name: string;
  workspace: Workspace;
}

/** Loads what a list needs with the keys guarded and a status line; keys typed meanwhile are dropped. */
async function loading<T>(ctx: Context, what: string, load: () => Promise<T>): Promise<T> {
  const guard = guardKeys(ctx.io, ctx.interrupts);
  ctx.io.status(`Loading ${what}…`);
  try {
    return await load();
  } finally {
    ctx.io.status(undefined);
    guard.release();
  }
}

async function workspaces(ctx: Context): Promise<Workspace[]> {
  const { envelope } = await ctx.api().call('list_workspaces', {}, { signal: ctx.signal });
  return itemsOf(envelope.data)
    .map(readWorkspace)
    .map((w) => ({ id: known(w.id) ?? '', name: sanitizeInline(known(w.name) ?? ''), record: w }))
    .filter((w) => w.id);
}

async function sitesOf(ctx: Context, list: Workspace[], max: number): Promise<Site[]> {
  const sites: Site[] = [];
  for (const workspace of list) {
    const args = { workspaceId: workspace.id };
    for await (const s of paginate(ctx.api(), 'list_sites', args, { max: max - sites.length, signal: ctx.signal })) {
      const site = readSite(s);
      const id = known(site.id);
      if (id) sites.push({ id, name: sanitizeInline(known(site.name) ?? ''), workspace });
    }
    if (sites.length >= max) break;
  }
  return sites;
}

/** Each row's line: its label (the free name, then more), its id last (io/choice-layout.ts). */
const lines = (io: Context['io'], rows: Array<{ name: string; more: string; id: string }>) =>
  fitChoices(
    io.columns,
    rows.map((r) => ({ cells: [r.name, r.more], id: r.id })),
    { free: 0, optional: [1] },
  );

function pickFrom<T>(ctx: Context, question: string, choices: Choice<T>[]): Promise<T> {
  return ctx.prompter.select(question, choices, { filter: true });
}

/** The site to work on, picked on a terminal when none was named and there is no default. */
export async function pickSite(ctx: Context): Promise<string> {
  const { all, sites } = await loading(ctx, 'the sites', async () => {
    const all = await workspaces(ctx);
    return { all, sites: await sitesOf(ctx, all, PICK_MAX + 1) };
  });
  if (sites.length === 0)
    throw new UsageError('This token reaches no site yet; create one with `sitebuilder site create`.');
  if (sites.length === 1) {
    ctx.io.info(`Using ${sites[0].id}, the only site this token reaches.`);
    return sites[0].id;
  }
  let shown = sites;
  if (sites.length > PICK_MAX && all.length > 1) {
    const workspace = await pickFrom(ctx, 'Which workspace?', workspaceChoices(ctx, all));
    shown = await loading(ctx, 'the sites', () => sitesOf(ctx, [workspace], PICK_MAX));
  } else if (sites.length > PICK_MAX) {
    shown = sites.slice(0, PICK_MAX);
    ctx.io.info(`The first ${PICK_MAX} sites; name the site to reach another.`);
  }
  const several = new Set(shown.map((s) => s.workspace.id)).size > 1;
  const shownLines = lines(
    ctx.io,
    shown.map((s) => ({ name: s.name, more: several ? `(${s.workspace.name || s.workspace.id})` : '', id: s.id })),
  );
  if (shownLines.cut)
    sayCut(ctx.io, shown.length > 30 ? 'sitebuilder site list --all | cat' : 'sitebuilder site list | cat');
  const choices = shown.map((s, i) => ({ label: shownLines.lines[i], picked: s.id, value: s.id, search: s.id }));
  return pickFrom(ctx, 'Which site?', choices);
}

function workspaceChoices(ctx: Context, list: Workspace[]): Choice<Workspace>[] {
  const rows = list.map((w) => {
    const plan = known(w.record.plan);
    const credits = known(w.record.credits);
    const more = [plan && `${sanitizeInline(plan)} plan`, credits !== undefined && `${credits} credits`].filter(
      Boolean,
    );
    return { name: w.name, more: more.length ? `(${more.join(', ')})` : '', id: w.id };
  });
  const shown = lines(ctx.io, rows);
  if (shown.cut) sayCut(ctx.io, 'sitebuilder workspace list | cat');
  return list.map((w, i) => ({ label: shown.lines[i], picked: w.id, value: w, search: w.id }));
}

/** The workspace for a new site: the token's only one, else picked on a terminal, else exit 2 naming --workspace. */
export async function pickWorkspace(ctx: Context): Promise<string> {
  const all = await loading(ctx, 'the workspaces', () => workspaces(ctx));
  if (all.length === 1) return all[0].id;
  if (all.length === 0) throw new UsageError('This token reaches no workspace; use a token that reaches one.');
  if (!ctx.prompter.canPrompt()) {
    const ids = all.map((w) => w.id);
    throw new UsageError(
      `The token reaches ${ids.length} workspaces; name one with --workspace (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''}).`,
    );
  }
  return (await pickFrom(ctx, 'Which workspace?', workspaceChoices(ctx, all))).id;
}
