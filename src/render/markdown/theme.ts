// How the agent's Markdown looks on a terminal: the paints of each kind of text, at the colour
// level the IO object decided (style.ts: our own SGR, marked as ours), and whether links are
// OSC 8 hyperlinks (where hyperlinks.ts says the terminal shows them). Without colour, emphasis and code lose their markers and
// show as plain text; headings, lists, quotes and code blocks keep their layout.
import type { IO } from '../../io/io.js';
import { style } from '../../io/style.js';
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

export function themeFor(io: IO): Theme {
  const links = io.stdoutIsTTY && supportsHyperlinks(io.env) ? hyperlink : undefined;
  if (!io.color) return { ...PLAIN_THEME, link: links };
  const c = style(io);
  return {
    bold: (t) => c.bold(t),
    italic: (t) => c.italic(t),
    strike: (t) => c.strikethrough(t),
    code: (t) => c.cyan(t),
    dim: (t) => c.dim(t),
    heading: (depth) =>
      depth <= 1 ? (t) => c.bold.underline(t) : depth === 2 ? (t) => c.bold(t) : (t) => c.bold.dim(t),
    linkText: (t) => c.underline(t),
    link: links,
  };
}
