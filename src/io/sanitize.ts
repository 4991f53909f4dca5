// Text from the service, and anything the user typed that is echoed back, cannot drive the
// terminal: escape sequences (CSI, an OSC 52 clipboard write, DCS, APC, PM, SOS, …), C0 and C1
// controls, DEL, the bidi controls (which reorder what is shown) and every other invisible format
// character (Unicode Cf: zero-width space and joiners, BOM, word joiner, tag characters…, which
// would let `site_bak\u200dery` pass for `site_bakery`) are removed before printing, the line and
// paragraph separators U+2028/U+2029 become newlines, and all of them are \uXXXX escapes in JSON.
// Two layers (docs/reliability.md): sanitize()/sanitizeInline() where a value is put into a
// sentence or a cell, and forTerminal()/forJson() in the IO object's writers, which every byte
// printed goes through. Our own colour survives the second layer only because style.ts marks each
// of its SGR sequences with a secret made when the process starts, which no string from outside
// can carry.
import { stringifyJson } from './json-deep.js';

/** ESC sequences: CSI; OSC, DCS, SOS, PM, APC strings up to BEL, ST or the end; nF; Fp/Fe/Fs; a lone ESC. */
const ESC_SEQUENCE =
  '\\u001b(?:\\[[0-?]*[ -/]*[@-~]?|[\\]PX^_][\\s\\S]*?(?:\\u0007|\\u001b\\\\|\\u009c|$)|[ -/]+[0-~]?|[0-~])?';
/** The 8-bit forms: CSI, and OSC, DCS, SOS, PM, APC strings. */
const C1_SEQUENCE = '\\u009b[0-?]*[ -/]*[@-~]?|[\\u0090\\u0098\\u009d-\\u009f][\\s\\S]*?(?:\\u0007|\\u009c|$)';
/**
 * The format characters (Unicode Cf, the bidi controls among them) as a class's ranges for a `u`
 * expression: what `\p{Cf}` matches in Unicode 17 (Node 22 and 24), spelled out because V8 builds
 * a property class from ICU's tables each time an expression holding one is compiled, about 1 ms of
 * `site list`'s start-up for the three here (test/unit/io/sanitize.test.ts checks it against `\p{Cf}`).
 */
export const FORMAT_CHARACTERS =
  '\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u180e\\u200b-\\u200f\\u202a-\\u202e' +
  '\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb\\u{110bd}\\u{110cd}\\u{13430}-\\u{1343f}' +
  '\\u{1bca0}-\\u{1bca3}\\u{1d173}-\\u{1d17a}\\u{e0001}\\u{e0020}-\\u{e007f}';
/** C0 but tab and newline, DEL, C1, and the format characters. */
const CONTROL = `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${FORMAT_CHARACTERS}]`;
/** What becomes a newline: CR LF, CR, and the line and paragraph separators. */
const BREAK = '\\r\\n?|[\\u2028\\u2029]';

const SEQUENCES = new RegExp(`${ESC_SEQUENCE}|${C1_SEQUENCE}`, 'gu');
const CONTROLS = new RegExp(CONTROL, 'gu');
const BREAKS = new RegExp(BREAK, 'g');

/** Any character sanitize() could change (every sequence starts with one): most text has none. */
const ANY_CONTROL = new RegExp(`${CONTROL}|[\\r\\u2028\\u2029]`, 'u');

/** Removes every escape sequence, control and format character; keeps newlines and tabs (`\r\n`, `\r`, U+2028 and U+2029 become `\n`). */
export function sanitize(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(SEQUENCES, '').replace(BREAKS, '\n').replace(CONTROLS, '');
}

/** For one-line cells: also folds newlines and tabs into spaces. */
export function sanitizeInline(text: string): string {
  return sanitize(text).replace(/[\n\t]+/g, ' ');
}

/**
 * Sanitizes every string inside a value (for printing records from the service as text). A loop
 * with its own stack, not recursion: data nested 100,000 levels deep is walked like any other.
 */
export function sanitizeDeep<T>(value: T): T {
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return sanitize(v);
    if (Array.isArray(v)) return new Array(v.length);
    return v && typeof v === 'object' ? {} : v;
  };
  const root = copy(value);
  const stack: Array<[unknown, unknown]> = [[value, root]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [from, to] = item as [Record<string, unknown>, Record<string, unknown>];
    if (typeof from !== 'object' || from === null) continue;
    const array = Array.isArray(from);
    for (const [k, v] of Object.entries(from)) {
      const made = copy(v);
      const key = array ? k : sanitizeInline(k);
      // A key `__proto__` (JSON.parse makes it an own property) stays data.
      if (key === '__proto__') Object.defineProperty(to, key, { value: made, enumerable: true, writable: true });
      else to[key] = made;
      if (made !== null && typeof made === 'object') stack.push([v, made]);
    }
  }
  return root as T;
}

/** True when the text holds a character sanitize() removes (besides `\r`). */
export function hasControls(text: string): boolean {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text);
}

// The mark of our own SGR sequences (and OSC 8 hyperlinks): eight characters of the Private Use
// Area drawn at random when first needed. Text from outside cannot guess it, so it cannot pass
// its sequences as ours.
let ownMark: string | undefined;
let ownPatterns: { marked: RegExp; unmarked: RegExp; any: RegExp } | undefined;

function patterns() {
  if (!ownPatterns) {
    const draw = globalThis.crypto.getRandomValues(new Uint16Array(8));
    ownMark = String.fromCharCode(...Array.from(draw, (n) => 0xe000 + (n % 0x1900)));
    const mark = [...ownMark].map((c) => `\\u${c.charCodeAt(0).toString(16)}`).join('');
    ownPatterns = {
      // Our SGR or hyperlink, or the mark alone (what is left of it once sanitize() removed the sequence).
      marked: new RegExp(`${mark}(${OWN_SEQUENCE})?`, 'g'),
      unmarked: new RegExp(`(?<!${mark})\\u001b\\[[0-9;]*m`, 'g'),
      any: new RegExp(`${mark}(${OWN_SEQUENCE})|${ESC_SEQUENCE}|${C1_SEQUENCE}|${BREAK}|${CONTROL}|${mark}`, 'gu'),
    };
  }
  return ownPatterns;
}

/** Our SGR, and OSC 8 hyperlinks (to printable ASCII). */
const OWN_SEQUENCE = '\\u001b\\[[0-9;]*m|\\u001b\\]8;;[\\x21-\\x7e]*\\u001b\\\\';

/** One of our own sequences (an OSC 8 hyperlink) marked as ours. */
export function markOwn(sequence: string): string {
  patterns();
  return ownMark + sequence;
}

/** Marks every SGR sequence of a text we coloured ourselves (style.ts, the table printer) as ours. */
export function markOwnSgr(text: string): string {
  return text.includes('\u001b') ? text.replace(patterns().unmarked, `${ownMark}$&`) : text;
}

/**
 * What reaches a terminal or a pipe: sanitize(), except that our own SGR sequences stay when
 * `keepOwnColour`, and our own hyperlinks always (each loses its mark). Every writer of the IO object goes through it.
 */
export function forTerminal(text: string, keepOwnColour: boolean): string {
  // Our hyperlinks (`ESC ]`) stay whatever the colour.
  if (!ownPatterns && !ANY_CONTROL.test(text)) return text;
  return text.replace(patterns().any, (whole, sgr: string | undefined) => {
    if (sgr) return keepOwnColour || sgr[1] === ']' ? sgr : '';
    return /^[\r\u2028\u2029]/.test(whole) ? '\n' : '';
  });
}

/** In JSON text (a string's contents or between tokens): every control and format character but tab and newline, and the line and paragraph separators, as \uXXXX. */
const JSON_ESCAPED = new RegExp(`${CONTROL}|[\\u2028\\u2029]`, 'gu');

/** A character as JSON escapes: one \uXXXX per UTF-16 unit (a tag character takes two). */
const escapeUnits = (c: string) =>
  Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * What reaches stdout under --json: the same value, but no raw control or bidi character.
 * JSON.stringify already escapes C0; C1, DEL and the format characters it leaves raw are escaped
 * here, which inside a JSON string means the same characters. Our colour is dropped.
 */
export function forJson(text: string): string {
  const bare = ownPatterns ? text.replace(ownPatterns.marked, '') : text;
  return bare.replace(JSON_ESCAPED, escapeUnits);
}

/** JSON.stringify (at any depth: json-deep.ts), then forJson(): a JSON document that shows as it is on any terminal. */
export function jsonText(value: unknown, indent?: number): string {
  return forJson(stringifyJson(value, indent) ?? 'null');
}
