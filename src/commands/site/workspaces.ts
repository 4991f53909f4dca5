// The workspaces a token reaches, and a site found in them (the service has no single-site read).
import type { ApiClient } from '../../api/client.js';
import { itemsOf, paginate } from '../../api/paginate.js';
import { ApiError } from '../../errors.js';
import { siteId as idOfSite, workspaceId } from '../../service/sites.js';

export async function workspaceIds(client: ApiClient, signal?: AbortSignal): Promise<string[]> {
  const { envelope } = await client.call('list_workspaces', {}, { signal });
  return itemsOf(envelope.data).map(workspaceId).filter(Boolean);
}

/** The service has no single-site read, so a site is found in its workspace's listing. */
export async function findSite(
  client: ApiClient,
  siteId: string,
  signal?: AbortSignal,
): Promise<{ site: unknown; workspaceId: string } | undefined> {
  for (const ws of await workspaceIds(client, signal)) {
    for await (const site of paginate(client, 'list_sites', { workspaceId: ws }, { signal })) {
      if (idOfSite(site) === siteId) return { site, workspaceId: ws };
    }
  }
  return undefined;
}

/** findSite, or the refusal `site view` and `site use` give (a 404: the site is not there). */
export async function requireSite(
  client: ApiClient,
  siteId: string,
  signal?: AbortSignal,
  after = '',
): Promise<{ site: unknown; workspaceId: string }> {
  const found = await findSite(client, siteId, signal);
  if (found) return found;
  throw new ApiError(
    { status: 404, method: 'list_sites', message: 'not found' },
    `No site ${siteId} in the workspaces this token reaches; \`sitebuilder site list\` shows them.${after}`,
  );
}
