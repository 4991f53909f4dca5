// Block Markdown (marked's block tokens) as terminal rows within a width: headings without their
// `#`, paragraphs wrapped at words, lists with their markers and hanging indents (nested lists
// under their item's text), block quotes behind a bar, fenced code set apart behind a bar and
// never re-wrapped (a line wider than the room is folded at the edge, its continuation marked),
// tables fitted with the layout of our other tables (io/layout.ts), rules. Blank lines are kept
// as the source has them, one row each place, so that what is printed of a block never changes
// when the text after it comes (render/markdown/stream.ts).
import type { Token, Tokens } from 'marked';
import { inlineLines } from './inline.js';
import { renderTable } from './table.js';
import type { Theme } from './theme.js';
import { type BlockContext, type Prefix, plainWidth, prefix, wrapFragments } from './wrap.js';
import { append } from '../append.js';

const BULLETS = ['•', '◦', '▪'];
const TAB = '    ';

const join = (a: Prefix, b: Prefix): Prefix => ({ text: a.text + b.text, width: a.width + b.width });

/** Each line of the text as rows, none re-wrapped: a line wider than the room is folded at the edge. */
export function codeRows(text: string, first: Prefix, rest: Prefix, ctx: BlockContext): string[] {
  const { theme } = ctx;
  const bar = join(rest, prefix(theme.dim('│ '), 2));
  const fold = join(rest, prefix(theme.dim('↳ '), 2));
  const room = Math.max(1, ctx.width - bar.width);
  const rows: string[] = [];
  const lines = text.replace(/\t/g, TAB).split('\n');
  lines.forEach((line, i) => {
    const lead = i === 0 ? join(first, prefix(theme.dim('│ '), 2)) : bar;
    if (line === '') {
      rows.push(lead.text.trimEnd());
      return;
    }
    let start = 0;
    let used = 0;
    let head = lead;
    for (let k = 0; k < line.length; ) {
      const cp = line.codePointAt(k) as number;
      const len = cp > 0xffff ? 2 : 1;
      const w = plainWidth(String.fromCodePoint(cp));
      if (used + w > room && used > 0) {
        rows.push(head.text + theme.code(line.slice(start, k)));
        head = fold;
        start = k;
        used = 0;
      }
      used += w;
      k += len;
    }
    rows.push(head.text + theme.code(line.slice(start)));
  });
  return rows;
}

function inlineRows(tokens: Token[], first: Prefix, rest: Prefix, ctx: BlockContext, paint?: (t: string) => string) {
  const rows: string[] = [];
  inlineLines(tokens, ctx.theme, paint).forEach((line, i) => {
    append(rows, wrapFragments(line, ctx.width, i === 0 ? first : rest, rest, ctx.theme));
  });
  return rows;
}

function listRows(list: Tokens.List, first: Prefix, rest: Prefix, ctx: BlockContext): string[] {
  const rows: string[] = [];
  const start = typeof list.start === 'number' ? list.start : 1;
  list.items.forEach((item, i) => {
    const marker = list.ordered ? `${start + i}.` : (BULLETS[ctx.depth % BULLETS.length] as string);
    const lead = i === 0 ? first : rest;
    const box = item.task ? (item.checked ? ' [x]' : ' [ ]') : '';
    const mark = prefix(`${list.ordered ? marker : ctx.theme.dim(marker)}${box} `, plainWidth(marker) + box.length + 1);
    const hang = join(rest, prefix(' '.repeat(mark.width)));
    const inner = { ...ctx, depth: ctx.depth + 1 };
    const body = blockRows(item.tokens, join(lead, mark), hang, inner);
    append(rows, body.length ? body : [join(lead, mark).text.trimEnd()]);
    // A blank line after the item in the source: a blank row (whatever the list's other items do).
    if (i < list.items.length - 1 && /\n[ \t]*\n\s*$/.test(item.raw)) rows.push(rest.text.trimEnd());
  });
  return rows;
}

function blockRows(tokens: Token[], first: Prefix, rest: Prefix, ctx: BlockContext): string[] {
  const rows: string[] = [];
  const { theme } = ctx;
  tokens.forEach((t) => {
    const lead = rows.length === 0 ? first : rest;
    switch (t.type) {
      case 'space':
        if (rows.length) rows.push(rest.text.trimEnd());
        break;
      case 'heading':
        append(rows, inlineRows(t.tokens ?? [], lead, rest, ctx, theme.heading(t.depth)));
        break;
      case 'paragraph':
      case 'text':
        append(rows, inlineRows(t.tokens ?? [{ type: 'text', raw: t.text, text: t.text }], lead, rest, ctx));
        break;
      case 'list':
        append(rows, listRows(t as Tokens.List, lead, rest, ctx));
        break;
      case 'blockquote': {
        const bar = prefix(theme.dim('┃ '), 2);
        append(rows, blockRows(t.tokens ?? [], join(lead, bar), join(rest, bar), ctx));
        break;
      }
      case 'code':
        append(rows, codeRows(t.text, lead, rest, ctx));
        break;
      case 'hr': {
        const room = Math.max(3, ctx.width - lead.width);
        rows.push(lead.text + theme.dim('─'.repeat(room)));
        break;
      }
      case 'table':
        append(rows, renderTable(t as Tokens.Table, lead, rest, ctx));
        break;
      case 'html':
        // HTML shows as it was written, as code is.
        rows.push(
          ...codeRows(t.text.replace(/\n+$/, ''), lead, rest, { ...ctx, theme: { ...theme, code: theme.dim } }),
        );
        break;
      case 'def':
      case 'checkbox':
        // A link reference definition prints nothing (its links show their address); a task's box is in its marker.
        break;
      default:
        append(rows, inlineRows([{ type: 'text', raw: t.raw, text: t.raw.replace(/\n+$/, '') }], lead, rest, ctx));
    }
  });
  return rows;
}

/** Block tokens as rows within `width` columns. */
export function renderBlocks(tokens: Token[], width: number, theme: Theme): string[] {
  const none = prefix('', 0);
  return blockRows(tokens, none, none, { width, theme, depth: 0 });
}
