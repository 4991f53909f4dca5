// Markdown nested absurdly deep is not parsed (docs/reliability.md). marked's lexer recurses
// once per level of quote, list and emphasis, so the agent's text nested a few thousand levels
// would exhaust the stack, and a list nested 500 levels already takes a second to parse (2,000:
// a minute). A part of the text nested past these bounds is shown as it was written, its lines
// wrapped, after a line naming the depth; everything else renders as Markdown.

/** Quote levels, and list levels (as indentation: 4 columns a level at most), parsed as Markdown. */
export const MARKDOWN_DEPTH_MAX = 32;
/** Emphasis delimiters (`*`, `_` at a word's edge) in one paragraph parsed as Markdown. */
export const EMPHASIS_DELIMITERS_MAX = 1_000;

import { formatCount } from '../../api/limits.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Columns of leading whitespace, a tab to the next multiple of 4. */
function indentOf(line: string): number {
  let n = 0;
  for (const c of line) {
    if (c === ' ') n++;
    else if (c === '\t') n += 4 - (n % 4);
    else break;
  }
  return n;
}

/**
 * Whether the text could be nested past a bound at all: more `>` than quote levels allowed, a
 * line indented by more characters than a list may be (a tab counts 4 columns at most), or more
 * `*` and `_` than emphasis delimiters allowed. Most text is not: one pass, no line split.
 */
function mayBeTooDeep(source: string): boolean {
  let quotes = 0;
  let marks = 0;
  let indent = 0;
  let lineStart = true;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart && (c === 32 || c === 9)) {
      if (++indent > MARKDOWN_DEPTH_MAX) return true;
      continue;
    }
    lineStart = false;
    if (c === 62 && ++quotes > MARKDOWN_DEPTH_MAX) return true;
    if ((c === 42 || c === 95) && ++marks > EMPHASIS_DELIMITERS_MAX) return true;
  }
  return false;
}

/** What is nested too deep to parse, as words ("quotes nested 5,000 levels deep"), or undefined. */
export function markdownTooDeep(source: string): string | undefined {
  if (!mayBeTooDeep(source)) return undefined;
  let fence: string | undefined;
  let delimiters = 0;
  for (const line of source.split('\n')) {
    const open = FENCE.exec(line)?.[1];
    if (fence) {
      if (open && open[0] === fence[0] && open.length >= fence.length) fence = undefined;
      continue;
    }
    if (open) {
      fence = open;
      continue;
    }
    if (line.trim() === '') {
      delimiters = 0;
      continue;
    }
    const quotes = /^(?:[ \t]*>)+/.exec(line)?.[0].replace(/[^>]/g, '').length ?? 0;
    if (quotes > MARKDOWN_DEPTH_MAX) return `quotes nested ${formatCount(quotes)} levels deep`;
    const indent = indentOf(line);
    if (indent > 4 * MARKDOWN_DEPTH_MAX)
      return `lists nested over ${MARKDOWN_DEPTH_MAX} levels deep (a line indented ${formatCount(indent)} columns)`;
    delimiters += line.match(/\*+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu)?.length ?? 0;
    if (delimiters > EMPHASIS_DELIMITERS_MAX)
      return `over ${formatCount(EMPHASIS_DELIMITERS_MAX)} emphasis marks in a paragraph`;
  }
  return undefined;
}

/** The note above a part shown as written. */
export const tooDeepNote = (why: string) => `(Markdown with ${why}: shown as written)`;
