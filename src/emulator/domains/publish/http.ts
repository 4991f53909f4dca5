// The published sites, served at {origin}/sites/<siteId>/: the files of the live deployment
// (the newest ready one), so the address `publish` prints opens in a browser.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { publishedPageHeaders } from '../../file-headers.js';
import { resolvePage } from './model.js';
import { liveDeployment, SITES_ROUTE } from './state.js';
import type { EmulatorHost } from '../../host.js';

export function servePublishedSite(req: IncomingMessage, res: ServerResponse, url: URL, emu: EmulatorHost): boolean {
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
    const why = !emu.site(siteId)
      ? 'No site lives here.'
      : !live
        ? 'This site has not been published yet.'
        : 'No page at this address.';
    res
      .writeHead(404, { 'content-type': 'text/html; charset=utf-8', ...publishedPageHeaders() })
      .end(`<!doctype html><title>Not found</title><p>${why}</p>\n`);
    return true;
  }
  const body = Buffer.from(file.body);
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(body.length),
    'x-deployment-id': live!.deploymentId,
    ...publishedPageHeaders(),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
