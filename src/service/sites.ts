// Workspaces and sites: `_id` is stated for both ("used as projectId in every site method"), and
// list_sites puts the sites in `data` with the total in `count`; every other field of their
// records is not shown. create_site "returns the new site and a jobId" (where the site sits in
// the answer: not shown), and refuses with `data.reason`, `sitesCount`, `siteLimit` (stated).
import { field, locate, type ReadRecord, readRecord, recordOf, resource } from './read.js';
import { parseTime } from './time.js';
import { NEW_SITE, SITE_ID, SITE_NAME, siteId } from './site-ids.js';
import { asHostAddress, asId, asNumber, asText, asWebAddress } from './values.js';

/** Where a live address may be, as a whole http(s) address, in the order they are read. */
export const ADDRESS_PATHS = ['url', 'liveUrl', 'publicUrl', 'siteUrl', 'publishedUrl', 'address'];
/** Where a bare host name may be, made into https://NAME/. */
export const HOST_PATHS = ['domain', 'hostname'];

export const liveAddressField = field(
  'the live address',
  [...ADDRESS_PATHS, ...ADDRESS_PATHS.map((p) => `*.${p}`)],
  asWebAddress,
);
export const hostAddressField = field('the live host name', HOST_PATHS, asHostAddress);

/**
 * The live address in a record: a whole http(s) address under one of the names above, at the
 * top or one level down (taken there only when every match agrees), else a bare host name.
 * Never an id, a path or anything else.
 */
export function readLiveAddress(record: unknown): string | undefined {
  return locate(record, liveAddressField)?.value ?? locate(record, hostAddressField)?.value;
}

export const SITE = resource('site record', 'list_sites data (the list); create_site data', {
  id: SITE_ID,
  name: SITE_NAME,
  workspaceId: field('its workspace', ['workspaceId'], asId),
  updated: field('when it last changed', ['updatedAt', 'createdAt'], parseTime),
  created: field('when it was made', ['createdAt', 'created'], parseTime),
  address: liveAddressField,
  host: hostAddressField,
});

export type SiteRecord = ReadRecord<typeof SITE.fields>;
export const readSite = (raw: unknown): SiteRecord => readRecord(SITE, raw);
/** A site's id, or '' when its record holds none (such a record is left out by the callers). */
export { siteId };

export const WORKSPACE = resource('workspace record', 'list_workspaces data', {
  id: field('its id', ['_id', 'id'], asId, ['_id']),
  name: field('its name', ['name', 'title', 'label'], asText),
  plan: field('its plan', ['plan'], asText),
  credits: field('its credits', ['credits', 'creditBalance'], asNumber),
});

export type WorkspaceRecord = ReadRecord<typeof WORKSPACE.fields>;
export const readWorkspace = (raw: unknown): WorkspaceRecord => readRecord(WORKSPACE, raw);
export const workspaceId = (raw: unknown): string => locate(raw, WORKSPACE.fields.id)?.value ?? '';

export const CREATE_ANSWER = resource('create_site answer', 'create_site data', {
  site: NEW_SITE,
  siteId: field(
    'the new site’s id',
    ['site._id', 'site.id', 'project._id', 'project.id', '_id', 'id', 'projectId', 'siteId'],
    asId,
  ),
  jobId: field('its first build', ['jobId', 'job.jobId', 'job._id'], asId, ['jobId']),
});

/** create_site's answer: the site record (else the data), its id and the first build's run. */
export function readCreateAnswer(data: unknown): { site: unknown; siteId?: string; jobId?: string } {
  const f = CREATE_ANSWER.fields;
  return {
    site: locate(data, f.site)?.value ?? data,
    siteId: locate(data, f.siteId)?.value,
    jobId: locate(data, f.jobId)?.value,
  };
}

/** create_site's refusal data (stated): why, and how full the plan is. */
export function readCreateRefusal(data: unknown): { reason?: string; sitesCount?: unknown; siteLimit?: unknown } {
  const d = recordOf(data);
  return {
    reason: typeof d.reason === 'string' ? d.reason : undefined,
    sitesCount: d.sitesCount ?? undefined,
    siteLimit: d.siteLimit ?? undefined,
  };
}
