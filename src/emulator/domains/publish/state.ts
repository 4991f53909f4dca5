// The publish domain's slice and the lookups its handlers, its HTTP route and other domains
// share: the deployments of a site, the one being served, and the site's address.
import { originOf } from '../../origin.js';
import { statusAt, type Deployment } from './model.js';
import type { EmulatorHost } from '../../host.js';

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

export const publishSlice = (emu: EmulatorHost) => emu.slice<PublishSlice>(PUBLISH_DOMAIN);

export const siteAddress = (emu: EmulatorHost, siteId: string) =>
  `${originOf(emu)}${SITES_ROUTE}${encodeURIComponent(siteId)}/`;

export function deploymentsOf(emu: EmulatorHost, siteId: string): Deployment[] {
  return publishSlice(emu).deployments[siteId] ?? [];
}

/** The deployment being served: the newest one that is ready. */
export function liveDeployment(emu: EmulatorHost, siteId: string): Deployment | undefined {
  const now = emu.clock.now();
  return [...deploymentsOf(emu, siteId)].reverse().find((d) => statusAt(d, now).status === 'ready');
}
