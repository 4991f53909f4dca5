// Markdown text as terminal rows: parsed by marked's lexer (its tokens only; marked's HTML
// renderer is not used), laid out by blocks.ts. The text is parsed part by part (split.ts), so
// the work is linear in its length and an async caller yields between parts: a 10 MB plan does
// not keep Ctrl-C waiting. A part too long to parse at once (a 1 MB line) is shown as written,
// a slice of rows at a time (written.ts). The text must be sanitized before (the parser never sees a control
// character); our own escapes (colour, hyperlinks) are added after parsing.
import { Lexer } from 'marked';
import { wrapLine } from '../../io/width.js';
import { renderBlocks } from './blocks.js';
import { markdownTooDeep, tooDeepNote } from './depth.js';
import { parts } from './split.js';
import type { Theme } from './theme.js';
import { shownAsWritten, writtenRows } from './written.js';

const OPTIONS = { gfm: true, breaks: false } as const;

/** One part (complete blocks, or the open end of a stream) as rows; as written when nested too deep to parse (depth.ts) or too long (written.ts). */
export function renderPart(source: string, width: number, theme: Theme): string[] {
  const rows: string[] = [];
  for (const slice of partSlices(source, width, theme)) for (const row of slice) rows.push(row);
  return rows;
}

/** A part's rows a slice at a time: at once for a part of the size Markdown is written in, by slices for one shown as written. */
export function* partSlices(source: string, width: number, theme: Theme): Generator<string[]> {
  const deep = markdownTooDeep(source);
  const long = shownAsWritten(source);
  if (deep) yield wrapLine(tooDeepNote(deep), width, 0, { commands: false });
  if (long) yield* writtenRows(source, width);
  else if (deep)
    yield source
      .replace(/\n$/, '')
      .split('\n')
      .flatMap((line) => wrapLine(line, width, 0, { commands: false }));
  else yield renderBlocks(Lexer.lex(source, OPTIONS), width, theme);
}

/** A whole text as rows (no trailing blank row). */
export function renderMarkdown(text: string, width: number, theme: Theme): string[] {
  const rows: string[] = [];
  for (const part of parts(normalize(text))) for (const row of renderPart(part, width, theme)) rows.push(row);
  return trimBlank(rows);
}

/** The same, yielding to the event loop every few milliseconds; stops early (undefined) when the signal aborts. */
export async function renderMarkdownAsync(
  text: string,
  width: number,
  theme: Theme,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  const rows: string[] = [];
  let since = performance.now();
  for (const part of parts(normalize(text)))
    for (const slice of partSlices(part, width, theme)) {
      for (const row of slice) rows.push(row);
      if (performance.now() - since > YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      if (signal?.aborted) return undefined;
    }
  return trimBlank(rows);
}

/** How long rendering runs before it lets other work (a Ctrl-C) in. */
export const YIELD_MS = 20;

/** Line ends as `\n` (sanitize() already does it for the service's text), ending with one. */
export function normalize(text: string): string {
  const t = text.replace(/\r\n?/g, '\n');
  return t.endsWith('\n') ? t : `${t}\n`;
}

export function trimBlank(rows: string[]): string[] {
  let end = rows.length;
  while (end > 0 && isBlankRow(rows[end - 1] as string)) end--;
  return end === rows.length ? rows : rows.slice(0, end);
}

/** A row with nothing visible (a blank line, or one of a quote's bar only). */
export const isBlankRow = (row: string): boolean => row.replace(/[\ue000-\uf8ff]|\u001b\[[0-9;]*m/g, '').trim() === '';
