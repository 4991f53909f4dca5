// What the scripted agent understands of a prompt: the kind of site, a title, the pages it
// names, a colour, dark or light, and page removals. Plain keyword matching, deterministic.

export interface Brief {
  title: string;
  kind: string;
  tagline: string;
  pages: string[];
  removePages: string[];
  color?: { name: string; hex: string };
  dark: boolean;
  restyle: boolean;
}

export const PAGE_WORDS: Record<string, string> = {
  about: 'about',
  contact: 'contact',
  menu: 'menu',
  gallery: 'gallery',
  blog: 'blog',
  pricing: 'pricing',
  prices: 'pricing',
  faq: 'faq',
  team: 'team',
  services: 'services',
  events: 'events',
  shop: 'shop',
  products: 'shop',
  changelog: 'changelog',
  hours: 'hours',
};

const KINDS: Array<[RegExp, string]> = [
  [/\b(bakery|caf[eé]|restaurant|bistro|coffee|pizzeria|bar)\b/i, 'food business'],
  [/\b(portfolio|photograph\w*|artist|designer)\b/i, 'portfolio'],
  [/\b(blog|journal|diary|newsletter)\b/i, 'blog'],
  [/\b(shop|store|boutique|e-?commerce|products?)\b/i, 'shop'],
  [/\b(docs|documentation|manual|guide|changelog)\b/i, 'documentation site'],
  [/\b(agency|landing|startup|saas|app)\b/i, 'landing page'],
  [/\b(recipe|recipes|cooking)\b/i, 'recipe collection'],
  [/\b(intranet|team|company)\b/i, 'company site'],
];

const COLORS: Record<string, string> = {
  red: '#c0392b',
  orange: '#e67e22',
  yellow: '#f1c40f',
  gold: '#d4a017',
  green: '#27ae60',
  teal: '#16a085',
  blue: '#2e86de',
  navy: '#1b2a4a',
  purple: '#8e44ad',
  pink: '#e84393',
  brown: '#8d6e63',
  black: '#111111',
  gray: '#7f8c8d',
  grey: '#7f8c8d',
  warm: '#d35400',
  calm: '#2e86de',
  fresh: '#27ae60',
};

const STOP = new Set([
  'a',
  'an',
  'the',
  'for',
  'with',
  'and',
  'of',
  'in',
  'on',
  'my',
  'our',
  'to',
  'make',
  'build',
  'create',
  'site',
  'website',
  'page',
  'please',
  'simple',
  'new',
]);

function titleCase(words: string[]): string {
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** A title from the first meaningful words of the prompt. */
export function titleFrom(text: string): string {
  const words = text
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w.toLowerCase()));
  return titleCase(words.slice(0, 3).map((w) => w.toLowerCase())) || 'My Site';
}

export function readBrief(text: string, siteName?: string): Brief {
  const lower = text.toLowerCase();
  const kind = KINDS.find(([re]) => re.test(text))?.[1] ?? 'website';
  const removal = /\b(remove|delete|drop|get rid of)\b/.test(lower);
  const pages: string[] = [];
  const removePages: string[] = [];
  for (const [word, page] of Object.entries(PAGE_WORDS)) {
    if (!new RegExp(`\\b${word}\\b`).test(lower)) continue;
    const target =
      removal && new RegExp(`\\b(remove|delete|drop|get rid of)\\b[^.]*\\b${word}\\b`).test(lower)
        ? removePages
        : pages;
    if (!target.includes(page)) target.push(page);
  }
  const colorName = Object.keys(COLORS).find((c) => new RegExp(`\\b${c}\\b`).test(lower));
  const first = text.split(/[.!?\n]/)[0]?.trim() ?? '';
  return {
    title: siteName || titleFrom(text),
    kind,
    tagline: first.length > 140 ? `${first.slice(0, 139)}…` : first,
    pages,
    removePages,
    color: colorName ? { name: colorName, hex: COLORS[colorName] } : undefined,
    dark: /\bdark\b/.test(lower),
    restyle:
      Boolean(colorName) || /\b(dark|light|colou?rs?|font|style|styles|look|theme|brighter|bolder)\b/.test(lower),
  };
}
