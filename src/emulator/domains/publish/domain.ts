// Publishing: publish_site, get_publish_status, get_publish_logs and list_deployments, plus the
// published sites served at {origin}/sites/<siteId>/ (http.ts).
// A publish snapshots the site's files when it starts; the live site keeps its last ready
// version while a new one builds or when it fails (model.ts has the statuses).
import { assertCodeHostingAllows } from '../code-hosting/domain.js';
import { ALREADY_PUBLISHING, DEFAULT_PUBLISH_MS, logAt, statusAt, type Deployment } from './model.js';
import { placeholderFiles, siteFilesForPublish } from './site-files.js';
import { DEFAULT_SLOW_SECONDS } from '../../state.js';
import { defineDomain } from '../../types.js';
import { publishControl } from './control.js';
import { servePublishedSite } from './http.js';
import {
  deploymentsOf,
  liveDeployment,
  publishSlice,
  siteAddress,
  PUBLISH_DOMAIN,
  type PublishSlice,
} from './state.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

export type { PublishSlice } from './state.js';
export { liveDeployment, siteAddress } from './state.js';

const PAGE_MAX = 1000;
const SEEDED_LIVE = ['site_bakery', 'site_docs'];

function who(emu: EmulatorHost, userId: string): string {
  return emu.user(userId)?.name ?? userId;
}

function deploymentView(emu: EmulatorHost, d: Deployment) {
  const s = statusAt(d, emu.clock.now());
  return {
    deploymentId: d.deploymentId,
    running: s.running,
    status: s.status,
    url: siteAddress(emu, d.siteId),
    startedAt: emu.iso(d.startedAt),
    finishedAt: s.finishedAt === null ? null : emu.iso(s.finishedAt),
    error: s.status === 'failed' ? { message: d.failure } : null,
    files: d.files.length,
    createdBy: d.createdBy,
    live: liveDeployment(emu, d.siteId) === d,
  };
}

function page(call: CallContext): { offset: number; limit: number } {
  return { offset: call.args.offset ?? 0, limit: Math.min(call.args.limit ?? 100, PAGE_MAX) };
}

function publishSite(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  assertCodeHostingAllows(emu, site);
  const slice = publishSlice(emu);
  const list = (slice.deployments[site._id] ??= []);
  const latest = list[list.length - 1];
  if (latest && statusAt(latest, call.now()).running) {
    call.refuse(409, ALREADY_PUBLISHING, {
      activePublish: latest.deploymentId,
    });
  }
  // A site's outcome set for fleets (docs/emulator.md "Control API") holds for every publish.
  const failure =
    slice.failNext[site._id] ?? (site.outcome === 'failure' ? 'The build failed: a page could not be rendered.' : null);
  delete slice.failNext[site._id];
  const d: Deployment = {
    deploymentId: emu.newId('dep'),
    siteId: site._id,
    startedAt: call.now(),
    durationMs: site.outcome === 'slow' ? (site.slowSeconds ?? DEFAULT_SLOW_SECONDS) * 1000 : slice.durationMs,
    failure,
    createdBy: call.user._id,
    files: siteFilesForPublish(emu, site),
  };
  list.push(d);
  return { data: deploymentView(emu, d), message: 'The publish has started.' };
}

function getPublishStatus(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const list = deploymentsOf(call.emu, site._id);
  const latest = list[list.length - 1];
  if (!latest) return { data: { running: false, status: 'unpublished', url: null, deploymentId: null } };
  return { data: deploymentView(call.emu, latest) };
}

function getPublishLogs(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  const list = deploymentsOf(emu, site._id);
  const d = call.args.deploymentId
    ? list.find((x) => x.deploymentId === call.args.deploymentId)
    : list[list.length - 1];
  if (call.args.deploymentId && !d)
    call.refuse(404, `No deployment has the id "${call.args.deploymentId}" on this site.`, { reason: 'not-found' });
  const lines = d ? logAt(d, call.now(), siteAddress(emu, site._id), who(emu, d.createdBy)) : [];
  const { offset, limit } = page(call);
  return {
    data: {
      items: lines.slice(offset, offset + limit),
      deploymentId: d?.deploymentId ?? null,
      running: d ? statusAt(d, call.now()).running : false,
    },
    count: lines.length,
  };
}

function listDeployments(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const list = [...deploymentsOf(call.emu, site._id)].reverse();
  const { offset, limit } = page(call);
  return { data: list.slice(offset, offset + limit).map((d) => deploymentView(call.emu, d)), count: list.length };
}

export const publishDomain = defineDomain<PublishSlice>({
  name: PUBLISH_DOMAIN,
  init: (): PublishSlice => ({ deployments: {}, failNext: {}, durationMs: DEFAULT_PUBLISH_MS }),
  // Two seeded sites were published two days ago, so `publish status` has something to show.
  seed(emu, slice) {
    for (const siteId of SEEDED_LIVE) {
      const site = emu.site(siteId);
      if (!site) continue;
      const startedAt = emu.clock.now() - 2 * 86_400_000;
      slice.deployments[siteId] = [
        {
          deploymentId: emu.newId('dep'),
          siteId,
          startedAt,
          durationMs: DEFAULT_PUBLISH_MS,
          failure: null,
          createdBy: site.createdBy,
          files: placeholderFiles(site),
        },
      ];
    }
  },
  handlers: {
    publish_site: publishSite,
    get_publish_status: getPublishStatus,
    get_publish_logs: getPublishLogs,
    list_deployments: listDeployments,
  },
  control: publishControl,
  http: servePublishedSite,
  siteFields: (emu, site) => {
    const live = publishSlice(emu).deployments[site._id] ? liveDeployment(emu, site._id) : undefined;
    return {
      publishedUrl: live ? siteAddress(emu, site._id) : null,
      publishedAt: live ? emu.iso(live.startedAt + live.durationMs) : null,
    };
  },
});
