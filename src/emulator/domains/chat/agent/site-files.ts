// The real files the scripted agent writes: HTML and CSS that reflect the prompt. A published
// site is served from these by the emulator.
import type { Brief } from './brief.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const PAGE_TITLES: Record<string, string> = {
  about: 'About',
  contact: 'Contact',
  menu: 'Menu',
  gallery: 'Gallery',
  blog: 'Blog',
  pricing: 'Pricing',
  faq: 'Questions',
  team: 'Team',
  services: 'Services',
  events: 'Events',
  shop: 'Shop',
  changelog: 'Changelog',
  hours: 'Opening hours',
};

export const pageTitle = (page: string) => PAGE_TITLES[page] ?? page.charAt(0).toUpperCase() + page.slice(1);
export const pageFile = (page: string) => `${page}.html`;

function nav(pages: string[]): string {
  const links = [
    `<a href="index.html">Home</a>`,
    ...pages.map((p) => `<a href="${pageFile(p)}">${escapeHtml(pageTitle(p))}</a>`),
  ];
  return `<nav>${links.join(' ')}</nav>`;
}

function shell(brief: Brief, pages: string[], title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="styles.css">
</head>
<body>
  <header>
    <h1>${escapeHtml(brief.title)}</h1>
    ${nav(pages)}
  </header>
  <main>
${body}
  </main>
  <footer>${escapeHtml(brief.title)} · built with the site agent</footer>
</body>
</html>
`;
}

/** The home page; `notes` are the changes asked for since, each a section. */
export function renderIndex(brief: Brief, pages: string[], notes: string[]): string {
  const sections = notes.map((n) => `    <section class="note"><p>${escapeHtml(n)}</p></section>`).join('\n');
  const body = `    <section class="hero">
      <h2>${escapeHtml(brief.title)}</h2>
      <p>${escapeHtml(brief.tagline || `A ${brief.kind}.`)}</p>
    </section>${sections ? `\n${sections}` : ''}`;
  return shell(brief, pages, brief.title, body);
}

export function renderPage(brief: Brief, pages: string[], page: string): string {
  const body = `    <section>
      <h2>${escapeHtml(pageTitle(page))}</h2>
      <p>${escapeHtml(`${pageTitle(page)} of ${brief.title}.`)}</p>
    </section>`;
  return shell(brief, pages, `${pageTitle(page)} · ${brief.title}`, body);
}

export function renderCss(brief: Brief): string {
  const accent = brief.color?.hex ?? '#d35400';
  const [bg, fg] = brief.dark ? ['#15171c', '#f2f2f2'] : ['#fffdf8', '#222222'];
  return `:root {
  --accent: ${accent};
  --bg: ${bg};
  --fg: ${fg};
}
body { margin: 0; font-family: system-ui, sans-serif; background: var(--bg); color: var(--fg); }
header { padding: 2rem; border-bottom: 4px solid var(--accent); }
nav a { margin-right: 1rem; color: var(--accent); }
main { max-width: 60rem; margin: 0 auto; padding: 2rem; }
.hero h2 { font-size: 2.5rem; color: var(--accent); }
.note { border-left: 3px solid var(--accent); padding-left: 1rem; }
footer { padding: 2rem; opacity: 0.7; }
`;
}
