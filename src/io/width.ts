// How wide text shows on a terminal, closely enough to lay out tables, wrap prose and keep a
// status line on one row: wide characters count two; SGR sequences, combining marks, controls
// and the Private Use Area (where sanitize.ts puts the mark of our own colour) count none.

const PARTS = /\u001b\[[0-9;]*m|[\s\S]/gu;

const isWide = (cp: number) =>
  (cp >= 0x1100 && cp <= 0x115f) ||
  (cp >= 0x2e80 && cp <= 0xa4cf) ||
  (cp >= 0xac00 && cp <= 0xd7a3) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0xfe30 && cp <= 0xfe4f) ||
  (cp >= 0xff00 && cp <= 0xff60) ||
  (cp >= 0xffe0 && cp <= 0xffe6) ||
  (cp >= 0x20000 && cp <= 0x3fffd);

/** Columns one part (a code point, or a whole SGR sequence) takes. */
function partWidth(part: string): number {
  if (part.length > 1 && part[0] === '\u001b') return 0;
  if (/\p{Mn}|\p{Me}|\p{Cc}|\p{Co}|\u200b|\u200d/u.test(part)) return 0;
  const cp = part.codePointAt(0) ?? 0;
  return /\p{Extended_Pictographic}/u.test(part) || isWide(cp) ? 2 : 1;
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
