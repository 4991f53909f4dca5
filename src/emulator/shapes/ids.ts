// The form of the ids the emulator makes up at run time (jobs, messages, queue items,
// deployments, backups, restores, created sites, …) in each set of shapes
// (docs/emulator.md "Shapes"). The seeded ids (site_bakery, ws_demo, edom_bakery_mail, …) are
// fixed in both. Ids are deterministic: the same history gives the same ids.
import { createHash } from 'node:crypto';

/** Kinds whose alternate ids are UUIDs; every other kind gets 24-hex ObjectId-like ids. */
const UUID_KINDS = new Set(['qmsg', 'dep', 'sbk', 'srs', 'cbk', 'cronrun', 'hookcall']);

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The default form: prefix_000001, prefix_000002, … */
export function defaultId(prefix: string, n: number): string {
  return `${prefix}_${String(n).padStart(6, '0')}`;
}

/** A version-4 UUID made of a hash's hex digits (at least 32). */
export function uuidFromHex(h: string): string {
  const variant = '89ab'[Number.parseInt(h[16], 16) & 3];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A version-4 UUID made from the kind and the number, so it is stable for a history. */
function uuidOf(prefix: string, n: number): string {
  return uuidFromHex(sha(`${prefix}:${n}`));
}

/** ObjectId-like: a fixed time part, a part per kind, the number in hex. */
function objectIdOf(prefix: string, n: number): string {
  return `665f1c2a${sha(prefix).slice(0, 10)}${n.toString(16).padStart(6, '0')}`;
}

export function alternateId(prefix: string, n: number): string {
  return UUID_KINDS.has(prefix) ? uuidOf(prefix, n) : objectIdOf(prefix, n);
}

export const ID_PATTERNS = {
  objectId: '[0-9a-f]{24}',
  uuid: '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}',
} as const;

/**
 * A regular expression source (no anchors) matching the ids of a kind in the named shapes,
 * for tests and scripts that must recognize an id without knowing its form in advance.
 * `req` is the X-Request-Id.
 */
export function idPattern(prefix: string, shapes: 'default' | 'alternate'): string {
  if (prefix === 'req') return shapes === 'default' ? 'req_[0-9a-z]+' : ID_PATTERNS.uuid;
  if (shapes === 'default') return `${prefix}_\\d+`;
  return UUID_KINDS.has(prefix) ? ID_PATTERNS.uuid : ID_PATTERNS.objectId;
}
