// Words of a row as it is printed: our escape sequences (colour, hyperlinks, and the mark that
// makes them ours) take no room and belong to no word. The playback shows a row word by word
// (rowPrefix), and after a resize goes on from the letters already shown (restOfRow).
import { markOwnSgr } from '../io/sanitize.js';

/** An escape sequence we write (SGR, OSC 8), a character of the Private Use Area (our mark), or one character. */
const PART = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)|[\ue000-\uf8ff]|[\s\S]/gu;
const isEscape = (p: string) => p.length > 1 || (p >= '\ue000' && p <= '\uf8ff');

/** Escape sequences we write, and their mark: they take no room and hold no letter. */
const ESCAPES = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)|[\ue000-\uf8ff]/g;
const visible = (row: string) => (row.includes('\u001b') ? row.replace(ESCAPES, '') : row);

/** How many words the row shows. */
export function rowWords(shown: string): number {
  const row = visible(shown);
  let n = 0;
  let inWord = false;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    const space = c === 32 || c === 9 || (c > 127 && /\s/.test(row[i] as string));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** The row up to the end of its `k`-th word (the escapes right after it included), its colour closed. */
export function rowPrefix(row: string, k: number): string {
  if (k <= 0) return '';
  if (!row.includes('\u001b')) {
    const m = row.match(new RegExp(`^(\\s*\\S+){${k}}`));
    return m ? m[0] : row;
  }
  let n = 0;
  let inWord = false;
  let out = '';
  for (const p of row.match(PART) ?? []) {
    if (!isEscape(p)) {
      const space = /\s/.test(p);
      if (!space && !inWord) n++;
      if (n > k || (space && n === k)) break;
      inWord = !space;
    }
    out += p;
  }
  return out.length < row.length ? `${out}${markOwnSgr('\u001b[0m')}` : out;
}

/** Letters and digits the row shows: what stays the same when a text is laid out at another width. */
export function rowLetters(shown: string): number {
  const row = visible(shown);
  let n = 0;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n++;
    else if (c > 127 && c < 0xe000 && /[\p{L}\p{N}]/u.test(String.fromCodePoint(row.codePointAt(i) as number))) n++;
  }
  return n;
}

/** The row without its first `letters` letters and digits (and the spaces after them), its indent kept. */
export function restOfRow(row: string, letters: number): string {
  const indent = /^[ ]*/.exec(row.replace(/[\ue000-\uf8ff]|\u001b\[[0-9;]*m/g, ''))?.[0] ?? '';
  let seen = 0;
  let out = '';
  let skipping = true;
  for (const p of row.match(PART) ?? []) {
    if (isEscape(p)) {
      out += p;
      continue;
    }
    if (skipping) {
      if (/[\p{L}\p{N}]/u.test(p) && ++seen > letters) {
        skipping = false;
        out += p;
      }
      continue;
    }
    out += p;
  }
  return indent + out.replace(/^((?:[\ue000-\uf8ff]|\u001b\[[0-9;]*m)*)\s+/, '$1');
}
