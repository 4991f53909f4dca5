// The files of a site as a publish snapshots them. The agent (chat domain) owns what a site
// holds; it registers a provider in its attach(), and until then (or for a site the agent
// never wrote) a plain page made from the site's name and brief is published.
import type { SiteFile } from './model.js';
import type { SiteRecord } from '../../state.js';
import type { EmulatorHost } from '../../host.js';

export type SiteFilesProvider = (emu: EmulatorHost, site: SiteRecord) => SiteFile[] | undefined;

const providers = new WeakMap<EmulatorHost, SiteFilesProvider>();

/** Called by the domain that owns the sites' files (once per emulator, in attach()). */
export function provideSiteFiles(emu: EmulatorHost, provider: SiteFilesProvider): void {
  providers.set(emu, provider);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function placeholderFiles(site: SiteRecord): SiteFile[] {
  const title = escapeHtml(site.name);
  const brief = escapeHtml(site.prompt.length > 600 ? `${site.prompt.slice(0, 600)}…` : site.prompt);
  return [
    {
      path: 'index.html',
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><link rel="stylesheet" href="styles.css"></head>\n<body>\n<header><h1>${title}</h1></header>\n<main><p>${brief}</p></main>\n<footer>Published from the sitebuilder emulator.</footer>\n</body>\n</html>\n`,
    },
    {
      path: 'styles.css',
      contentType: 'text/css; charset=utf-8',
      body: 'body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}footer{color:#777;font-size:.9rem}\n',
    },
  ];
}

export function siteFilesForPublish(emu: EmulatorHost, site: SiteRecord): SiteFile[] {
  const files = providers.get(emu)?.(emu, site);
  return files && files.length > 0 ? files.map((f) => ({ ...f })) : placeholderFiles(site);
}
