// Prose fitted to the terminal: lines wrap at word boundaries, and what wraps is indented under
// the start of its line (a hanging indent). A command meant to be copied is never broken: a
// `backquoted` span, or a `sitebuilder …` (or `export …`) that starts a line or follows a colon
// and runs to its end, moves whole to a line of its own, even when that line is wider than the terminal. A word
// wider than the terminal stays whole too (the terminal folds it; copying it still works).
import { displayWidth } from './width.js';

/** Continuation lines start this many columns right of their line's own indent. */
export const HANG = 2;

/** The first word of a command line to copy: ours, a shell prompt's `$`, an `export` of variables. */
const COMMAND_START = new Set(['sitebuilder', '$', 'export']);

interface Group {
  /** What separated it from the group before (kept when both share a line). */
  gap: string;
  text: string;
  command: boolean;
}

/** The words of a line, with backquoted spans and a trailing command each kept as one group. */
function groupsOf(body: string): Group[] {
  const tokens = [...body.matchAll(/(\s*)(\S+)/g)].map((m) => ({ gap: m[1], text: m[2] }));
  const groups: Group[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const { gap, text } = tokens[i];
    const previous = tokens[i - 1]?.text;
    if (COMMAND_START.has(text) && (previous === undefined || previous.endsWith(':'))) {
      groups.push({
        gap,
        text: tokens
          .slice(i)
          .map((t, k) => (k === 0 ? t.text : t.gap + t.text))
          .join(''),
        command: true,
      });
      break;
    }
    // A backquote opens a span unless the word closes it too (`--json`).
    const opens = (text.match(/`/g)?.length ?? 0) % 2 === 1;
    if (opens) {
      let j = i;
      let span = text;
      while (j + 1 < tokens.length && (span.match(/`/g)?.length ?? 0) % 2 === 1) {
        j++;
        span += tokens[j].gap + tokens[j].text;
      }
      groups.push({ gap, text: span, command: true });
      i = j;
      continue;
    }
    groups.push({ gap, text, command: false });
  }
  return groups;
}

/** One line of text (no newline) as lines of at most `width` columns where its words allow. */
export function wrapLine(line: string, width: number, hang = HANG): string[] {
  if (displayWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)?.[0] ?? '';
  const next = ' '.repeat(Math.min(indent.length + hang, Math.max(0, Math.floor(width / 2))));
  const out: string[] = [];
  let current = indent;
  let used = displayWidth(indent);
  let empty = true;
  for (const g of groupsOf(line.slice(indent.length))) {
    const w = displayWidth(g.text);
    const gapWidth = displayWidth(g.gap);
    if (!empty && used + gapWidth + w <= width) {
      current += g.gap + g.text;
      used += gapWidth + w;
      continue;
    }
    if (!empty) {
      out.push(current);
      current = next;
      used = next.length;
    }
    // A command (or a long word) that only fits without the indent goes to the left edge.
    if (current === next && used + w > width && w <= width) {
      current = '';
      used = 0;
    }
    current += g.text;
    used += w;
    empty = false;
  }
  out.push(current);
  return out;
}

/** Wraps every line of the text; each keeps its own indent, continuations hang under it. */
export function wrapText(text: string, width: number, hang = HANG): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width, hang))
    .join('\n');
}
