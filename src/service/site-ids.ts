// A site's id and name, and the site create_site answers: all that every command needs of a
// site (the client notes the sites it meets for the completion of site ids, context.ts). The
// rest of a site's record is read in sites.ts, which loads with the commands that show it.
import { field, isRecord, locate } from './read.js';
import { asId, asText } from './values.js';

export const SITE_ID = field('its id', ['_id', 'id'], asId, ['_id']);
export const SITE_NAME = field('its name', ['name', 'title', 'label'], asText);

export const siteId = (raw: unknown): string => locate(raw, SITE_ID)?.value ?? '';

/** A site's id and name, without the rest of its record. */
export const siteIdAndName = (raw: unknown): { id: string; name: string } => ({
  id: siteId(raw),
  name: locate(raw, SITE_NAME)?.value ?? '',
});

/** Where create_site's answer holds the new site: under `site` or `project`, or the data itself. */
export const NEW_SITE = field('the new site', ['site', 'project', '.'], (v) =>
  isRecord(v) && siteId(v) ? v : undefined,
);
