// How wide text shows on a terminal, closely enough to lay out tables, wrap prose and keep a
// status line on one row: wide characters count two; SGR (and OSC 8) sequences, combining marks, controls
// and the Private Use Area (where sanitize.ts puts the mark of our own colour) count none.
//
// Prose fitted to the terminal: lines wrap at word boundaries, and what wraps is indented under
// the start of its line (a hanging indent). A command meant to be copied is never broken: a
// `backquoted` span, or a `sitebuilder …` (or `export …`) that starts a line or follows a colon
// and runs to its end, moves whole to a line of its own, even when that line is wider than the
// terminal. A word wider than the terminal stays whole too (the terminal folds it; copying it
// still works).

const PARTS = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)|[\s\S]/gu;

const isWide = (cp: number) =>
  (cp >= 0x1100 && cp <= 0x115f) ||
  (cp >= 0x2e80 && cp <= 0xa4cf) ||
  (cp >= 0xac00 && cp <= 0xd7a3) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0xfe30 && cp <= 0xfe4f) ||
  (cp >= 0xff00 && cp <= 0xff60) ||
  (cp >= 0xffe0 && cp <= 0xffe6) ||
  (cp >= 0x20000 && cp <= 0x3fffd);

/** Columns one part (a code point, or a whole SGR sequence) takes, as a terminal (tmux, wcwidth) counts them. */
export function partWidth(part: string): number {
  if (part.length > 1 && part[0] === '\u001b') return 0;
  if (/\p{Mn}|\p{Me}|\p{Cc}|\p{Cf}|\p{Co}|\u200b/u.test(part)) return 0;
  const cp = part.codePointAt(0) ?? 0;
  // Emoji shown as pictures by default are wide; those shown as text (✔, ©) take one column, as in tmux and wcwidth.
  return /\p{Emoji_Presentation}/u.test(part) || isWide(cp) ? 2 : 1;
}

/** How many columns the text takes on one line. */
export function displayWidth(text: string): number {
  // Plain ASCII, the common case, without the per-character walk.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let used = 0;
  for (const part of text.match(PARTS) ?? []) used += partWidth(part);
  return used;
}

/** Shortens a line to fit `width` columns, with no mark of the cut (a status line). */
export function fitWidth(text: string, width: number): string {
  let used = 0;
  let out = '';
  for (const part of text.match(PARTS) ?? []) {
    const w = partWidth(part);
    if (used + w > width) return out.includes('\u001b') ? `${out}\u001b[0m` : out;
    used += w;
    out += part;
  }
  return out;
}

/** Shortens text to `width` columns, ending it with … when something was cut. */
export function cutWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  return `${fitWidth(text, width - 1).trimEnd()}…`;
}

/** Pads text with spaces to `width` columns (text already that wide stays as it is). */
export function padWidth(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}

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

/**
 * The words of a line, with backquoted spans and a trailing command each kept as one group; in a
 * usage synopsis (`commands` false) no command, and a lone `|` goes with the alternative after it.
 */
function groupsOf(body: string, commands: boolean): Group[] {
  const tokens = [...body.matchAll(/(\s*)(\S+)/g)].map((m) => ({ gap: m[1], text: m[2] }));
  const groups: Group[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const { gap, text } = tokens[i];
    const previous = tokens[i - 1]?.text;
    if (commands && COMMAND_START.has(text) && (previous === undefined || previous.endsWith(':'))) {
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
    if (!commands && text === '|' && i + 1 < tokens.length) {
      groups.push({ gap, text: text + tokens[i + 1].gap + tokens[i + 1].text, command: false });
      i++;
      continue;
    }
    groups.push({ gap, text, command: false });
  }
  return groups;
}

/**
 * One line of text (no newline) as lines of at most `width` columns where its words allow.
 * `commands`: false when a `sitebuilder …` on the line is not one to copy (a usage synopsis).
 */
export function wrapLine(line: string, width: number, hang = HANG, { commands = true } = {}): string[] {
  if (displayWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)?.[0] ?? '';
  const next = ' '.repeat(Math.min(indent.length + hang, Math.max(0, Math.floor(width / 2))));
  const out: string[] = [];
  let current = indent;
  let used = displayWidth(indent);
  let empty = true;
  for (const g of groupsOf(line.slice(indent.length), commands)) {
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
    // A command (or a long word) that only fits without the indent goes to the left edge: on a
    // line of its own below, or as the line's first word (`  sitebuilder job watch …` at 40),
    // where one wider than the line goes too, to be folded as little as it can.
    const first = empty && current === indent;
    if ((current === next || first) && used + w > width && (w <= width || first)) {
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
