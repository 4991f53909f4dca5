// A Markdown table laid out as our other tables are (io/layout.ts): columns two spaces apart,
// the widest text columns cut with … to fit, and below their minimum each row as a block of
// `HEADER  value` lines. A rule under the header sets it apart. Cells keep their emphasis and
// code; a link in a cell shows its text and address (a hyperlink could be cut in the middle).
import type { Tokens } from 'marked';
import { layoutTable } from '../../io/layout.js';
import { displayWidth } from '../../io/width.js';
import { inlineLines } from './inline.js';
import type { BlockContext, Prefix } from './wrap.js';

function cellText(cell: Tokens.TableCell, ctx: BlockContext): string {
  const theme = { ...ctx.theme, link: undefined };
  return inlineLines(cell.tokens, theme)
    .map((line) => line.map((f) => f.paint(f.text)).join(''))
    .join(' ')
    .trim();
}

export function renderTable(table: Tokens.Table, first: Prefix, rest: Prefix, ctx: BlockContext): string[] {
  const columns = table.header.map((h) => ({ header: cellText(h, ctx), free: true }));
  const rows = table.rows.map((r) => columns.map((_, i) => (r[i] ? cellText(r[i], ctx) : '')));
  const room = Math.max(10, ctx.width - rest.width);
  const laid = layoutTable(columns, rows, room, ctx.theme.bold);
  const lines =
    laid.kind === 'table'
      ? [
          laid.lines[0],
          ctx.theme.dim('─'.repeat(Math.min(room, Math.max(...laid.lines.map(displayWidth))))),
          ...laid.lines.slice(1),
        ]
      : laid.lines;
  return lines.map((line, i) => (i === 0 ? first.text : rest.text) + line);
}
