// How a value the service sent becomes one of ours: text, an id, a count, a yes or no, an
// address. Each returns undefined for a value that is not one, so the next place is tried, and
// the reader says "unread" when none holds one (read.ts). Text is read generally: a string, a
// list of content blocks, or an object that wraps the text one level down, in that order.
import { isRecord } from './read.js';

/** Where an object may wrap its text, in the order they are tried. */
export const TEXT_KEYS = ['text', 'content', 'delta', 'message', 'value'] as const;

/** Block types that carry no text (an image, a tool use): skipped in a list of content blocks. */
const NON_TEXT_BLOCK = /^(image|file|tool[_-]?use|tool[_-]?call|thinking|redacted[_-]?thinking|audio|video)$/i;

/**
 * Keys that describe a record or name it, never hold its text: left out when an object's only
 * text is looked for (a block's type, an id, the usual metadata of an API's records).
 */
export const isDescriptorKey = (key: string): boolean =>
  /^(type|kind|role|format|lang|language|mime|mimeType|encoding|index|seq|status|state|object|etag|tenant|meta|_?links|href|url|uri|version|__v)$/i.test(
    key,
  ) || /(^_?id|Id|_id|ID)$/.test(key);

const ISO_TIME = /^\d{4}-\d\d-\d\d(T[\d:.]+(Z|[+-]\d\d:?\d\d)?)?$/;

/**
 * Text from a string, a list of content blocks (each read as text, or a typed block that carries
 * none), or an object wrapping it: under one of TEXT_KEYS, else as its only value that reads as
 * text (descriptors such as `type` or an id left out), a few objects down. A list with a block
 * that cannot be read is not read at all: a part shown as if whole would mislead.
 */
export function readText(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (depth > 4) return undefined;
  if (Array.isArray(value)) {
    let out = '';
    for (const block of value) {
      const text = readText(block, depth + 1);
      if (text !== undefined) out += text;
      else if (!(isRecord(block) && typeof block.type === 'string' && NON_TEXT_BLOCK.test(block.type)))
        return undefined;
    }
    return out;
  }
  if (!isRecord(value)) return undefined;
  for (const key of TEXT_KEYS) {
    if (!(key in value)) continue;
    const text = readText(value[key], depth + 1);
    if (text !== undefined) return text;
  }
  return onlyText(value, depth);
}

/** An object's only value that reads as text, its descriptors left out; undefined when none, or several. */
export function onlyText(
  value: Record<string, unknown>,
  depth = 0,
  skip: (key: string) => boolean = () => false,
): string | undefined {
  let found: string | undefined;
  for (const [key, v] of Object.entries(value)) {
    if (isDescriptorKey(key) || skip(key) || v === null || typeof v === 'number' || typeof v === 'boolean') continue;
    // A time is the record's metadata, not its text.
    if (typeof v === 'string' && ISO_TIME.test(v)) continue;
    const text = readText(v, depth + 1);
    if (text === undefined) continue;
    if (found !== undefined) return undefined;
    found = text;
  }
  return found;
}

/** Text for a label or a cell: a string, or a number or boolean written out. */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** Text of any form readText takes, for a field that holds prose (a message, a title). */
export const asProse = (value: unknown): string | undefined => readText(value);

/** An id: a non-empty string, or a number (ids come as either). */
export function asId(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A count or a size: a finite number, or text holding one. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export const asBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);

export const asList = (value: unknown): unknown[] | undefined => (Array.isArray(value) ? value : undefined);

export const asObject = (value: unknown): Record<string, unknown> | undefined => (isRecord(value) ? value : undefined);

/** Anything present, as it is (for values passed back to the service untouched). */
export const asAny = (value: unknown): unknown => value;

/** A whole http(s) address: never an id, a path or a sentence. */
export function asWebAddress(value: unknown): string | undefined {
  if (typeof value !== 'string' || /\s/.test(value)) return undefined;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A host name and nothing else: labels joined by dots, ending in a name of letters. */
const BARE_HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

/** A bare host name made into https://NAME/. */
export function asHostAddress(value: unknown): string | undefined {
  return typeof value === 'string' && BARE_HOST.test(value) ? `https://${value.toLowerCase()}/` : undefined;
}
