// Inline Markdown (marked's inline tokens) as lines of painted fragments: emphasis, code spans,
// links, escapes and character references. The markers themselves are never printed. A line
// break of the source (soft or hard) starts a new line, as GitHub shows comments: the agent's
// lines stay its lines. Code spans and addresses are single fragments that wrapping never breaks
// (values a person copies).
import type { Token, Tokens } from 'marked';
import type { Theme } from './theme.js';

type Paint = (text: string) => string;

export interface Fragment {
  text: string;
  paint: Paint;
  /** Never broken across rows (a code span, an address). */
  whole?: boolean;
  /** A hyperlink's address (OSC 8), applied to each row's piece of the fragment. */
  href?: string;
}

export type InlineLine = Fragment[];

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  rarr: '→',
  larr: '←',
  times: '×',
  euro: '€',
};

/** Character references (`&amp;`, `&#8212;`, `&#x2014;`) as the characters they stand for; unknown names stay. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref] ?? whole;
    const cp = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    // What would be a control is not brought back (the text was sanitized before it was parsed).
    if (!cp || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
      return '\ufffd';
    return String.fromCodePoint(cp);
  });
}

const compose =
  (outer: Paint, inner: Paint): Paint =>
  (t) =>
    outer(inner(t));

/** How a link is shown: its text with the address after it, or the text as a hyperlink. */
function linkFragments(token: Tokens.Link, theme: Theme, paint: Paint, out: InlineLine[]): void {
  const href = token.href;
  const text = token.tokens?.length ? token.tokens : [{ type: 'text', raw: token.text, text: token.text }];
  const plainText = token.text;
  const bare = token.autolink || plainText === href || plainText === href.replace(/^mailto:/, '');
  if (theme.link && /^(https?:|mailto:)/i.test(href)) {
    // The terminal shows hyperlinks: the text opens the address.
    const start = out.at(-1)?.length ?? 0;
    walk(text, theme, compose(paint, theme.linkText), out);
    for (const f of out.at(-1)?.slice(start) ?? []) f.href = href;
    return;
  }
  if (bare) {
    push(out, { text: href.replace(/^mailto:/, ''), paint: compose(paint, theme.linkText), whole: true });
    return;
  }
  walk(text, theme, compose(paint, theme.linkText), out);
  push(out, { text: ' (', paint: compose(paint, theme.dim) });
  push(out, { text: href, paint: compose(paint, theme.dim), whole: true });
  push(out, { text: ')', paint: compose(paint, theme.dim) });
}

function push(out: InlineLine[], f: Fragment): void {
  if (f.text === '') return;
  const parts = f.text.split('\n');
  parts.forEach((part, i) => {
    if (i > 0) out.push([]);
    if (part) (out.at(-1) as InlineLine).push({ ...f, text: part });
  });
}

function walk(tokens: Token[], theme: Theme, paint: Paint, out: InlineLine[]): void {
  for (const t of tokens) {
    switch (t.type) {
      case 'strong':
        walk(t.tokens ?? [], theme, compose(paint, theme.bold), out);
        break;
      case 'em':
        walk(t.tokens ?? [], theme, compose(paint, theme.italic), out);
        break;
      case 'del':
        walk(t.tokens ?? [], theme, compose(paint, theme.strike), out);
        break;
      case 'codespan':
        push(out, { text: decodeEntities(t.text).replace(/\n/g, ' '), paint: compose(paint, theme.code), whole: true });
        break;
      case 'br':
        out.push([]);
        break;
      case 'link':
        linkFragments(t as Tokens.Link, theme, paint, out);
        break;
      case 'image': {
        const img = t as Tokens.Image;
        push(out, { text: img.text ? `[image: ${img.text}]` : '[image]', paint: compose(paint, theme.dim) });
        push(out, { text: ' ', paint });
        push(out, { text: img.href, paint: compose(paint, theme.dim), whole: true });
        break;
      }
      case 'checkbox':
        push(out, { text: t.checked ? '[x] ' : '[ ] ', paint });
        break;
      case 'escape':
        push(out, { text: t.text, paint });
        break;
      case 'html':
        // Inline HTML shows as it was written (a <br> as a line break).
        if (/^<br\s*\/?>$/i.test(t.text)) out.push([]);
        else push(out, { text: t.text, paint: compose(paint, theme.dim) });
        break;
      case 'text':
        if (t.tokens?.length) walk(t.tokens, theme, paint, out);
        else push(out, { text: decodeEntities(t.text), paint });
        break;
      default:
        push(out, { text: 'text' in t && typeof t.text === 'string' ? t.text : t.raw, paint });
    }
  }
}

/** Inline tokens as lines of fragments (at least one line). */
export function inlineLines(tokens: Token[], theme: Theme, paint: Paint = (t) => t): InlineLine[] {
  const out: InlineLine[] = [[]];
  walk(tokens, theme, paint, out);
  return out;
}
