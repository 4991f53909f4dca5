// Values in the random shapes: times in other formats, ids in other forms (numbers among them),
// and the words of fields the reference does not list spelled otherwise.
import { createHash } from 'node:crypto';
import {
  ID_FORMS,
  type IdForm,
  NUMERIC_ID_KINDS,
  SPELLINGS,
  STATED_VALUE_FIELDS,
  STATED_VALUES,
  TIME_FORMATS,
  type TimeFormat,
  type TextForm,
} from './catalogue.js';
import { Draw } from './draw.js';
import { ID_PATTERNS, uuidFromHex } from '../ids.js';

// ---- times -------------------------------------------------------------------------------

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
export const isIsoTime = (v: unknown): v is string => typeof v === 'string' && ISO.test(v);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An ISO-8601 UTC time in another format; `offsetMinutes` is the zone of `isoOffset`. */
export function formatTime(iso: string, format: TimeFormat, offsetMinutes: number): string | number {
  const ms = Date.parse(iso);
  const d = new Date(ms);
  switch (format) {
    case 'iso':
      return iso;
    case 'isoSeconds':
      return `${d.toISOString().slice(0, 19)}Z`;
    case 'isoOffset': {
      const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
      const sign = offsetMinutes < 0 ? '-' : '+';
      const abs = Math.abs(offsetMinutes);
      return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    }
    case 'epochMs':
      return ms;
    case 'epochS':
      return Math.floor(ms / 1000);
    case 'epochMsText':
      return String(ms);
    case 'rfc2822':
      return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
    case 'httpDate':
      return d.toUTCString();
    case 'sql':
      return d.toISOString().slice(0, 23).replace('T', ' ');
  }
}

/** The seed's time formats: a main one, and now and then another for one field. */
export class Times {
  readonly main: TimeFormat;
  readonly offsetMinutes: number;

  constructor(private readonly draw: Draw) {
    this.main = draw.pick('time:main', TIME_FORMATS);
    this.offsetMinutes = draw.pick('time:offset', [-300, 60, 120, 330, 540]);
  }

  formatOf(kind: string, key: string): TimeFormat {
    const label = `time:${kind}:${key}`;
    return this.draw.chance(`${label}:other`, 0.3) ? this.draw.pick(label, TIME_FORMATS) : this.main;
  }

  format(kind: string, key: string, iso: string): string | number {
    return formatTime(iso, this.formatOf(kind, key), this.offsetMinutes);
  }
}

// ---- ids ---------------------------------------------------------------------------------

/** A numeric id, as the random shapes make them: nine digits (sent as a JSON number). */
export const NUMERIC_ID = /^[1-9]\d{8}$/;
/** Field names (the emulator's own) whose values are ids. */
export const isIdField = (key: string): boolean => /^_?id$|Id$|Ids$|^running$/.test(key);

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function idFormOf(draw: Draw, prefix: string): IdForm {
  const forms = ID_FORMS.filter((f) => f !== 'number' || NUMERIC_ID_KINDS.has(prefix));
  return draw.pick(`id:${prefix}`, forms);
}

/** The n-th id of a kind in the form the seed gives that kind. */
export function randomId(draw: Draw, prefix: string, n: number): string {
  const h = sha(`${draw.seed}:${prefix}:${n}`);
  switch (idFormOf(draw, prefix)) {
    case 'default':
      return `${prefix}_${pad(n, 6)}`;
    case 'uuid':
      return uuidFromHex(h);
    case 'objectId':
      return `66${sha(`${draw.seed}:${prefix}`).slice(0, 12)}${n.toString(16).padStart(10, '0')}`;
    case 'number':
      return `${100 + draw.int(`id-base:${prefix}`, 900)}${pad(n, 6)}`;
    case 'ulid': {
      let out = '01J';
      for (let i = 0; out.length < 26; i++) out += CROCKFORD[Number.parseInt(h.slice(i * 2, i * 2 + 2), 16) & 31];
      return out;
    }
  }
}

// ---- words and text ----------------------------------------------------------------------

/** A word the reference does not list, spelled as the seed spells it for that field of that record. */
export function respell(draw: Draw, kind: string, key: string, value: unknown): unknown {
  if (typeof value !== 'string' || STATED_VALUES.has(value) || STATED_VALUE_FIELDS.has(key)) return value;
  const pool = SPELLINGS[key]?.[value];
  if (!pool) return value;
  const label = `spell:${kind}:${key}:${value}`;
  return draw.chance(`${label}:other`, 0.6) ? draw.pick(label, pool) : value;
}

/** Text in one of the forms a service might send it. */
export function formText(text: string, form: TextForm): unknown {
  switch (form) {
    case 'plain':
      return text;
    case 'blocks':
      return [{ type: 'text', text }];
    case 'wrapped':
      return { value: text };
    case 'parts':
      return [{ kind: 'markdown', body: text }];
  }
}

/** A regular expression source (no anchors) matching the ids of a kind in a seed's shapes (`req`: X-Request-Id). */
export function randomIdPattern(seed: number, prefix: string): string {
  const draw = new Draw(seed);
  if (prefix === 'req') return requestIdForm(draw) === 'uuid' ? ID_PATTERNS.uuid : 'req_[0-9a-z]+';
  switch (idFormOf(draw, prefix)) {
    case 'default':
      return `${prefix}_\\d+`;
    case 'uuid':
      return ID_PATTERNS.uuid;
    case 'objectId':
      return '66[0-9a-f]{22}';
    case 'number':
      return '[1-9]\\d{8}';
    case 'ulid':
      return '01J[0-9A-HJKMNP-TV-Z]{23}';
  }
}

/** The seed's X-Request-Id form: the emulator's own (`req_…`) or a UUID. */
export const requestIdForm = (draw: Draw): 'default' | 'uuid' => draw.pick('id:req', ['default', 'uuid'] as const);
