// Listings of the methods the service names in passing, one per listing pattern it gives them:
// list_templates and list_workspace_members (offset and count, 50 a page),
// list_workspace_credit_activity (offset with hasMore, 20 a page, newest first),
// list_database_backups (page numbers, 10 a page, newest first: a daily backup at 03:00 UTC
// kept 30 days) and list_storage_files (token, 50 a page, the site's storage by path).
import { originOf } from '../../origin.js';
import { listStorageFiles, storageAddress } from '../storage-files/files.js';
import { defineDomain } from '../../types.js';
import { numberedPage, offsetHasMorePage, offsetPage, tokenPage } from '../shared/listing.js';
import { between, DAY, HOUR, pickOne, seededRandom } from '../shared/sample-data.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

const TEMPLATES: Array<[string, string, string]> = [
  ['tpl_bakery', 'Neighbourhood bakery', 'food'],
  ['tpl_restaurant', 'Restaurant with booking', 'food'],
  ['tpl_cafe', 'Coffee shop', 'food'],
  ['tpl_portfolio', 'Photographer portfolio', 'portfolio'],
  ['tpl_designer', 'Designer portfolio', 'portfolio'],
  ['tpl_docs', 'Product documentation', 'docs'],
  ['tpl_changelog', 'Changelog', 'docs'],
  ['tpl_blog', 'Personal blog', 'blog'],
  ['tpl_magazine', 'Magazine', 'blog'],
  ['tpl_shop', 'Small shop', 'shop'],
  ['tpl_event', 'Event landing page', 'landing'],
  ['tpl_saas', 'SaaS landing page', 'landing'],
  ['tpl_agency', 'Agency', 'landing'],
  ['tpl_nonprofit', 'Non-profit', 'landing'],
];

function listTemplates(call: CallContext): HandlerResult {
  const all = TEMPLATES.filter(
    ([, , category]) => call.args.category === undefined || category === call.args.category,
  ).map(([_id, name, category]) => ({ _id, name, category }));
  return offsetPage(all, call.args, 50, 'templates');
}

function listWorkspaceMembers(call: CallContext): HandlerResult {
  const ws = call.requireWorkspace(call.args.workspaceId);
  const all = ws.members.map((m) => {
    const user = call.emu.user(m.userId);
    return {
      userId: m.userId,
      name: user?.name ?? null,
      email: user?.email ?? null,
      role: m.role,
      permissions: m.role === 'owner' ? ['apiAccess', 'deleteProjects', 'manageDomains'] : m.permissions,
    };
  });
  return offsetPage(all, call.args, 50, 'members');
}

function listWorkspaceCreditActivity(call: CallContext): HandlerResult {
  const ws = call.requireWorkspace(call.args.workspaceId);
  const all = call.emu.state.core.creditActivity
    .filter((a) => a.workspaceId === ws._id)
    .sort((a, b) => b.at - a.at)
    .map((a) => ({ ...a, at: call.emu.iso(a.at), kind: a.amount >= 0 ? 'top-up' : 'spend' }));
  return offsetHasMorePage(all, call.args, 20, 'entries');
}

function listDatabaseBackups(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const now = call.now();
  const today3am = Math.floor(now / DAY) * DAY + 3 * HOUR;
  const latest = today3am <= now ? today3am : today3am - DAY;
  const all = [];
  for (let at = latest; at >= site.createdAt && at > now - 30 * DAY; at -= DAY) {
    const random = seededRandom(`${site._id}:${at}`);
    const day = new Date(at).toISOString().slice(0, 10).replace(/-/g, '');
    all.push({
      _id: `dbb_${site._id}_${day}`,
      type: 'automatic',
      createdAt: call.emu.iso(at),
      sizeBytes: between(random, 200_000, 4_000_000),
      tables: between(random, 3, 12),
      status: 'ready',
    });
  }
  return numberedPage(all, call.args, 10, 'database backups');
}

function listStorage(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const prefix: string = call.args.prefix ?? '';
  const all = listStorageFiles(call.emu, site._id)
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({
      path: f.path,
      visibility: f.visibility,
      size: f.size,
      contentType: f.contentType,
      url: f.visibility === 'public' ? storageAddress(originOf(call.emu), site._id, f.path) : null,
      updatedAt: call.emu.iso(f.updatedAt),
    }));
  return tokenPage(all, call.args, 50, 'files');
}

/** A credit history for the demo workspace that ends at its balance. */
function seedCreditActivity(emu: EmulatorHost): void {
  const ws = emu.workspace('ws_demo');
  if (!ws) return;
  const random = seededRandom('credits');
  const now = emu.clock.now();
  let balance = ws.credits;
  for (let i = 1; i <= 36; i++) {
    const topUp = i % 9 === 0;
    const amount = topUp ? 150 : -between(random, 2, 40);
    emu.state.core.creditActivity.push({
      _id: emu.newId('cred'),
      workspaceId: ws._id,
      at: now - i * 14 * HOUR,
      amount,
      balance,
      note: topUp
        ? 'Top-up'
        : pickOne(random, [
            'Build: Sunrise Bakery',
            'Build: Acme Docs',
            'Plan: Ana Lima Portfolio',
            'Build: Ana Lima Portfolio',
          ]),
      siteId: topUp ? null : pickOne(random, ['site_bakery', 'site_docs', 'site_portfolio']),
    });
    balance -= amount;
  }
}

export const listsDomain = defineDomain({
  name: 'lists',
  init: () => ({}),
  seed: seedCreditActivity,
  handlers: {
    list_templates: listTemplates,
    list_workspace_members: listWorkspaceMembers,
    list_workspace_credit_activity: listWorkspaceCreditActivity,
    list_database_backups: listDatabaseBackups,
    list_storage_files: listStorage,
  },
});
