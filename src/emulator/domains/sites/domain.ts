// Workspaces and sites: list_workspaces, list_sites (offset and count), create_site.
import type { WorkspaceRecord } from '../../state.js';
import { defineDomain } from '../../types.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

/** list_sites answers this many sites when no limit is sent (the service documents no page size). */
export const DEFAULT_PAGE_SIZE = 50;

function workspaceView(emu: EmulatorHost, ws: WorkspaceRecord, userId: string) {
  return {
    _id: ws._id,
    name: ws.name,
    plan: ws.plan,
    role: emu.memberRole(ws, userId)?.role ?? null,
    siteLimit: ws.siteLimit,
    sitesCount: emu.sitesOf(ws._id).length,
    credits: ws.credits,
  };
}

/** A name for a new site: the imported site's host, else the brief's first words. */
function siteName(prompt: string, sourceUrl?: string): string {
  if (sourceUrl) {
    try {
      return new URL(sourceUrl).hostname.replace(/^www\./, '');
    } catch {
      // Not an address we can read a host from: fall back to the prompt.
    }
  }
  const first =
    prompt
      .trim()
      .split(/[.!?\n]/)[0]
      .trim() || 'New site';
  return first.length > 48 ? `${first.slice(0, 47).trimEnd()}…` : first;
}

function listWorkspaces(call: CallContext): HandlerResult {
  const list = call.emu.reachableWorkspaces(call.token).map((ws) => workspaceView(call.emu, ws, call.token.userId));
  return { data: list, count: list.length, message: `${list.length} workspaces.` };
}

function listSites(call: CallContext): HandlerResult {
  const {
    workspaceId,
    offset = 0,
    limit = DEFAULT_PAGE_SIZE,
  } = call.args as { workspaceId: string; offset?: number; limit?: number };
  const ws = call.requireWorkspace(workspaceId);
  const all = call.emu.sitesOf(ws._id);
  // Sites past the plan's limit (the newest) are locked: known from the position, no lookup per site.
  const page = all
    .slice(offset, offset + limit)
    .map((s, i) => call.emu.siteView(s, { locked: offset + i >= ws.siteLimit }));
  return { data: page, count: all.length, message: `${page.length} of ${all.length} sites.` };
}

function createSite(call: CallContext): HandlerResult {
  const { emu } = call;
  const { workspaceId, prompt, importSource } = call.args as {
    workspaceId: string;
    prompt: string;
    importSource?: { SourceUrl: string };
  };
  const ws = call.requireWorkspace(workspaceId);
  const sitesCount = emu.sitesOf(ws._id).length;
  if (sitesCount >= ws.siteLimit) {
    call.refuse(
      403,
      `${ws.name} has ${sitesCount} sites, the most its plan allows (${ws.siteLimit}); upgrade the plan or remove a site.`,
      {
        reason: 'site-limit-reached',
        sitesCount,
        siteLimit: ws.siteLimit,
      },
    );
  }
  if (ws.spendingLimit !== null && ws.creditsSpent >= ws.spendingLimit) {
    call.refuse(
      403,
      `${ws.name} reached its plan's credit limit (${ws.spendingLimit} credits this period); nothing was created.`,
      {
        reason: 'credits-limit-reached',
        creditsSpent: ws.creditsSpent,
        spendingLimit: ws.spendingLimit,
      },
    );
  }
  call.requireCredits(ws);
  const site = emu.addSite({
    workspaceId: ws._id,
    name: siteName(prompt, importSource?.SourceUrl),
    prompt,
    importSource: importSource ? { SourceUrl: importSource.SourceUrl } : null,
    createdBy: call.user._id,
  });
  const { jobId } = emu.jobs.start({ site, workspace: ws, user: call.user, prompt, mode: 'build', firstBuild: true });
  return {
    data: { site: emu.siteView(site), jobId },
    message: `Created ${site.name}; its first build is running (job ${jobId}).`,
  };
}

export const sitesDomain = defineDomain({
  name: 'sites',
  init: () => ({}),
  handlers: {
    list_workspaces: listWorkspaces,
    list_sites: listSites,
    create_site: createSite,
  },
});
