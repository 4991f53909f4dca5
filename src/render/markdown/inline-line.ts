// Markdown as one line of text, for a place that holds one line (a history row, a question
// above a list of choices): its inline markup rendered, its block markers (`#`, `>`, list
// markers, fences) left out, its lines joined by spaces.
import { Lexer } from 'marked';
import { markdownTooDeep } from './depth.js';
import { inlineLines } from './inline.js';
import type { Theme } from './theme.js';

export function renderInline(text: string, theme: Theme): string {
  const lines: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const bare = line
      .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)/, '')
      .replace(/^\s*(`{3,}|~{3,}).*$/, '')
      .replace(/\s#+\s*$/, '');
    if (bare.trim() === '' || /^\s*\|?\s*:?-{3,}/.test(bare)) continue;
    // Nested too deep to parse (depth.ts): the line as written.
    if (markdownTooDeep(bare)) {
      lines.push(bare.trim());
      continue;
    }
    const tokens = Lexer.lexInline(bare, { gfm: true });
    lines.push(
      inlineLines(tokens, { ...theme, link: undefined })
        .map((l) => l.map((f) => f.paint(f.text)).join(''))
        .join(' ')
        .trim(),
    );
  }
  return lines.join(' ');
}
