// How wide a line shows on a terminal, closely enough to keep a status line on one row.

/** Shortens a line to fit `width` columns (wide characters count two; SGR sequences none). */
export function fitWidth(text: string, width: number): string {
  let used = 0;
  let out = '';
  for (const part of text.match(/\u001b\[[0-9;]*m|[\s\S]/gu) ?? []) {
    if (part.length > 1 && part[0] === '\u001b') {
      out += part;
      continue;
    }
    const cp = part.codePointAt(0) ?? 0;
    const w = /\p{Mn}|\p{Me}|\u200b|\u200d/u.test(part)
      ? 0
      : /\p{Extended_Pictographic}/u.test(part) || isWide(cp)
        ? 2
        : 1;
    if (used + w > width) return out.includes('\u001b') ? `${out}\u001b[0m` : out;
    used += w;
    out += part;
  }
  return out;
}

const isWide = (cp: number) =>
  (cp >= 0x1100 && cp <= 0x115f) ||
  (cp >= 0x2e80 && cp <= 0xa4cf) ||
  (cp >= 0xac00 && cp <= 0xd7a3) ||
  (cp >= 0xf900 && cp <= 0xfaff) ||
  (cp >= 0xfe30 && cp <= 0xfe4f) ||
  (cp >= 0xff00 && cp <= 0xff60) ||
  (cp >= 0xffe0 && cp <= 0xffe6) ||
  (cp >= 0x20000 && cp <= 0x3fffd);
