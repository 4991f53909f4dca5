// How the agent's Markdown looks on a terminal: the paints of each kind of text, at the colour
// level the IO object decided (style.ts: our own SGR, marked as ours), and whether links are
// OSC 8 hyperlinks (where hyperlinks.ts says the terminal shows them). Without colour, emphasis and code lose their markers and
// show as plain text; headings, lists, quotes and code blocks keep their layout.
import type { IO } from '../../io/io.js';
import { markOwnSgr } from '../../io/sanitize.js';
import { hyperlink, supportsHyperlinks } from './hyperlinks.js';

type Paint = (text: string) => string;

export interface Theme {
  bold: Paint;
  italic: Paint;
  strike: Paint;
  code: Paint;
  dim: Paint;
  heading: (depth: number) => Paint;
  linkText: Paint;
  /** An address as a hyperlink to itself where the terminal shows them; undefined elsewhere. */
  link?: (href: string, text: string) => string;
}

const same: Paint = (t) => t;

/** Plain text: no colour, no hyperlink (tests, and a terminal without colour). */
export const PLAIN_THEME: Theme = {
  bold: same,
  italic: same,
  strike: same,
  code: same,
  dim: same,
  heading: () => same,
  linkText: same,
};

/** A paint of our own SGR (marked as ours), without chalk's proxy: a long text has many fragments. */
function sgr(open: string, close: string): Paint {
  const o = markOwnSgr(`\u001b[${open}m`);
  const c = markOwnSgr(`\u001b[${close}m`);
  return (t) => (t === '' ? t : o + t + c);
}

export function themeFor(io: IO): Theme {
  const links = io.stdoutIsTTY && supportsHyperlinks(io.env) ? hyperlink : undefined;
  if (!io.color) return { ...PLAIN_THEME, link: links };
  const bold = sgr('1', '22');
  const underline = sgr('4', '24');
  const dim = sgr('2', '22');
  return {
    bold,
    italic: sgr('3', '23'),
    strike: sgr('9', '29'),
    code: sgr('36', '39'),
    dim,
    heading: (depth) => (depth <= 1 ? (t) => bold(underline(t)) : depth === 2 ? bold : sgr('1;2', '22')),
    linkText: underline,
    link: links,
  };
}
