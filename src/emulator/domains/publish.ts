// Publishing and uploads: publish_site, get_publish_status, get_publish_logs, list_deployments
// and upload_storage_file, plus the published sites served at {origin}/sites/<siteId>/.
// A publish snapshots the site's files when it starts; the live site keeps its last ready
// version while a new one builds or when it fails (publish-model.ts has the statuses).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UPLOAD_MAX_BYTES, contentTypeFor } from '../../api/upload-limits.js';
import { assertCodeHostingAllows } from '../code-hosting.js';
import type { Emulator } from '../emulator.js';
import { originOf } from '../origin.js';
import type { SiteRecord } from '../state.js';
import { putStorageFile, storageAddress } from '../storage.js';
import { defineDomain, type CallContext, type HandlerResult } from '../types.js';
import { DEFAULT_PUBLISH_MS, logAt, resolvePage, statusAt, type Deployment } from '../publish-model.js';
import { placeholderFiles, siteFilesForPublish } from '../site-files.js';
import { publishControl } from './publish-control.js';

export interface PublishSlice {
  /** siteId → deployments, oldest first. */
  deployments: Record<string, Deployment[]>;
  /** siteId → the failure message the next publish of that site ends with (control API). */
  failNext: Record<string, string>;
  /** Emulated ms a publish takes (control API). */
  durationMs: number;
}

export const PUBLISH_DOMAIN = 'publish';
export const SITES_ROUTE = '/sites/';
const PAGE_MAX = 1000;
const SEEDED_LIVE = ['site_bakery', 'site_docs'];

export const publishSlice = (emu: Emulator) => emu.slice<PublishSlice>(PUBLISH_DOMAIN);


export const siteAddress = (emu: Emulator, siteId: string) => `${originOf(emu)}${SITES_ROUTE}${encodeURIComponent(siteId)}/`;

function deploymentsOf(emu: Emulator, siteId: string): Deployment[] {
  return publishSlice(emu).deployments[siteId] ?? [];
}

/** The deployment being served: the newest one that is ready. */
export function liveDeployment(emu: Emulator, siteId: string): Deployment | undefined {
  const now = emu.clock.now();
  return [...deploymentsOf(emu, siteId)].reverse().find((d) => statusAt(d, now).status === 'ready');
}

function who(emu: Emulator, userId: string): string {
  return emu.user(userId)?.name ?? userId;
}

function deploymentView(emu: Emulator, d: Deployment) {
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
    call.refuse(409, 'This site is already being published. Wait for that publish to finish, then try again!', {
      activePublish: latest.deploymentId,
    });
  }
  const failure = slice.failNext[site._id] ?? null;
  delete slice.failNext[site._id];
  const d: Deployment = {
    deploymentId: emu.newId('dep'),
    siteId: site._id,
    startedAt: call.now(),
    durationMs: slice.durationMs,
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
  const d = call.args.deploymentId ? list.find((x) => x.deploymentId === call.args.deploymentId) : list[list.length - 1];
  if (call.args.deploymentId && !d) call.refuse(404, `No deployment has the id "${call.args.deploymentId}" on this site.`, { reason: 'not-found' });
  const lines = d ? logAt(d, call.now(), siteAddress(emu, site._id), who(emu, d.createdBy)) : [];
  const { offset, limit } = page(call);
  return {
    data: { items: lines.slice(offset, offset + limit), deploymentId: d?.deploymentId ?? null, running: d ? statusAt(d, call.now()).running : false },
    count: lines.length,
  };
}

function listDeployments(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const list = [...deploymentsOf(call.emu, site._id)].reverse();
  const { offset, limit } = page(call);
  return { data: list.slice(offset, offset + limit).map((d) => deploymentView(call.emu, d)), count: list.length };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function uploadStorageFile(call: CallContext): HandlerResult {
  const { emu } = call;
  const site: SiteRecord = call.requireSite(call.args.projectId);
  const name = String(call.args.fileName);
  const segments = name.split('/');
  if (name.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..') || /[\\\u0000-\u001f\u007f]/.test(name)) {
    call.refuse(400, '`fileName` must be a relative path of names separated by /, without empty, . or .. parts, backslashes or control characters.');
  }
  const b64 = String(call.args.contentBase64).replace(/\s+/g, '');
  if (b64.length % 4 !== 0 || !BASE64.test(b64)) call.refuse(400, '`contentBase64` is not valid base64.');
  const size = Buffer.byteLength(b64, 'base64');
  if (size > UPLOAD_MAX_BYTES) {
    call.refuse(413, `The file is ${size.toLocaleString('en-US')} bytes; files up to ${UPLOAD_MAX_BYTES.toLocaleString('en-US')} bytes (100 MB) can be uploaded.`, {
      size,
      maxSize: UPLOAD_MAX_BYTES,
    });
  }
  const file = putStorageFile(emu, site._id, {
    path: name,
    visibility: 'public',
    contentType: call.args.contentType ?? contentTypeFor(name),
    contentBase64: b64,
    size,
  });
  return {
    data: {
      url: storageAddress(originOf(emu), site._id, file.path),
      path: file.path,
      size: file.size,
      contentType: file.contentType,
      visibility: file.visibility,
      updatedAt: emu.iso(file.updatedAt),
    },
    message: 'The file was uploaded.',
  };
}

function servePublishedSite(req: IncomingMessage, res: ServerResponse, url: URL, emu: Emulator): boolean {
  if (!url.pathname.startsWith(SITES_ROUTE)) return false;
  const rest = url.pathname.slice(SITES_ROUTE.length);
  const slash = rest.indexOf('/');
  let siteId = '';
  try {
    siteId = decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash));
  } catch {
    /* a bad escape names no site */
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Use GET.\n');
    return true;
  }
  if (slash < 0 && siteId) {
    res.writeHead(301, { location: `${SITES_ROUTE}${encodeURIComponent(siteId)}/` }).end();
    return true;
  }
  const live = emu.site(siteId) ? liveDeployment(emu, siteId) : undefined;
  let path = '';
  try {
    path = decodeURIComponent(rest.slice(slash + 1));
  } catch {
    path = '\u0000';
  }
  const file = live ? resolvePage(live.files, path) : undefined;
  if (!file) {
    const why = !emu.site(siteId) ? 'No site lives here.' : !live ? 'This site has not been published yet.' : 'No page at this address.';
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Not found</title><p>${why}</p>\n`);
    return true;
  }
  const body = Buffer.from(file.body);
  res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(body.length), 'x-deployment-id': live!.deploymentId });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

export const publishDomain = defineDomain<PublishSlice>({
  name: PUBLISH_DOMAIN,
  init: (emu, { seed }) => {
    const slice: PublishSlice = { deployments: {}, failNext: {}, durationMs: DEFAULT_PUBLISH_MS };
    // Two seeded sites were published two days ago, so `publish status` has something to show.
    for (const siteId of seed ? SEEDED_LIVE : []) {
      const site = emu.site(siteId);
      if (!site) continue;
      const startedAt = emu.clock.now() - 2 * 86_400_000;
      slice.deployments[siteId] = [
        { deploymentId: emu.newId('dep'), siteId, startedAt, durationMs: DEFAULT_PUBLISH_MS, failure: null, createdBy: site.createdBy, files: placeholderFiles(site) },
      ];
    }
    return slice;
  },
  handlers: {
    publish_site: publishSite,
    get_publish_status: getPublishStatus,
    get_publish_logs: getPublishLogs,
    list_deployments: listDeployments,
    upload_storage_file: uploadStorageFile,
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
