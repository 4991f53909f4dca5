// The walk of an answer's data in the random shapes: every record's fields placed where the seed
// puts them (names.ts), their values reformatted (times, numeric ids, words, text forms:
// values.ts), extra fields added, and the records of a page reordered. What the reference
// names keeps its name (stated.ts); the values of the emulator's own data are never changed.
import { EXTRA_FIELDS, TEXT_FORMS } from './catalogue.js';
import { type Draw, hash32 } from './draw.js';
import type { Names } from './names.js';
import { ORDERED_LISTS, isStated, isUntouched } from './stated.js';
import { formText, isIdField, isIsoTime, NUMERIC_ID, respell, type Times } from './values.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Records that are one thing in several answers, so a field has one place in all of them. */
const KINDS: Record<string, string> = {
  'list_workspaces:[]': 'workspace',
  'list_sites:[]': 'site',
  'create_site:site': 'site',
  'list_messages:items[]': 'message',
  'list_queued_messages:items[]': 'queue item',
  'edit_queued_message:': 'queue item',
  'reorder_queued_message:item': 'queue item',
  'reorder_queued_message:items[]': 'queue item',
  'remove_queued_message:removed': 'queue item',
  'publish_site:': 'deployment',
  'get_publish_status:': 'deployment',
  'list_deployments:[]': 'deployment',
  'list_backups:items[]': 'site backup',
  'restore_backup:preRestoreBackup': 'site backup',
  'list_storage_backups:items[]': 'storage backup',
  'create_storage_backup:': 'storage backup',
  'get_storage_restore_status:': 'restore row',
  'restore_storage_backup:restore': 'restore row',
};
export const kindOf = (method: string, path: string): string => KINDS[`${method}:${path}`] ?? `${method}:${path}`;

/** What an `object` extra field calls a record: `message`, `messages_item`, `get_job`. */
const objectName = (kind: string) =>
  kind.includes(':')
    ? kind
        .replace(/^(list|get)_/, '')
        .replace(/\[\]/g, '_item')
        .replace(/\W+/g, '_')
        .replace(/_+$/, '')
    : kind.replace(/ /g, '_');

/** Keys whose string values are text a person reads (a message, a queued prompt). */
const TEXT_FIELDS = new Set(['text', 'prompt']);

/** Methods whose top-level list is a page of records (its order inside the page is not stated). */
const isListing = (method: string) =>
  method.startsWith('list_') || method === 'get_publish_logs' || method === 'browse_storage_backup';

export class RecordShaper {
  private readonly extras: string[];
  private readonly created = new WeakSet<object>();

  constructor(
    private readonly draw: Draw,
    private readonly names: Names,
    readonly times: Times,
  ) {
    this.extras = draw.shuffle('extras', EXTRA_FIELDS).slice(0, 1 + draw.int('extras:count', 4));
  }

  shape(method: string, data: unknown): unknown {
    return this.value(data, method, '');
  }

  /** The extra fields this seed adds. */
  extraFields(): string[] {
    return [...this.extras];
  }

  orderOf(method: string): 'kept' | 'reversed' | 'shuffled' {
    if (ORDERED_LISTS.has(`${method}:items`)) return 'kept';
    return this.draw.weighted(`order:${method}`, [
      ['kept', 0.3],
      ['reversed', 0.3],
      ['shuffled', 0.4],
    ] as const);
  }

  private value(v: unknown, method: string, path: string): unknown {
    if (isUntouched(method, path)) return v;
    if (Array.isArray(v)) {
      const items = v.map((x) => this.value(x, method, `${path}[]`));
      return this.isPage(method, path, v) ? this.reorder(method, path, items, v) : items;
    }
    return isRecord(v) ? this.record(v, method, path) : v;
  }

  private isPage(method: string, path: string, list: unknown[]): boolean {
    if (!isListing(method) || ORDERED_LISTS.has(`${method}:${path}`)) return false;
    return (path === '' || /^\w+$/.test(path)) && list.length > 1 && list.every(isRecord);
  }

  private reorder(method: string, path: string, items: unknown[], raw: unknown[]): unknown[] {
    const order = this.orderOf(method);
    if (order === 'kept') return items;
    if (order === 'reversed') return items.reverse();
    const first = raw[0] as Rec;
    const key = String(first._id ?? first.queueItemId ?? Object.values(first)[0]);
    return this.draw.shuffle(`order:${method}:${path}:${raw.length}:${key}`, items);
  }

  private record(rec: Rec, method: string, path: string): Rec {
    const kind = kindOf(method, path);
    const out: Rec = {};
    const entries = Object.entries(rec);
    const at = (k: string) => (path ? `${path}.${k}` : k);
    // What the reference names first, so nothing drawn takes its place.
    const stated = entries.filter(([k]) => isStated(method, at(k)));
    for (const [k, v] of stated) out[k] = this.scalar(kind, k, this.value(v, method, at(k)));
    for (const [k, v] of entries) {
      if (isStated(method, at(k))) continue;
      this.put(out, this.names.place(kind, k), this.scalar(kind, k, this.value(v, method, at(k))), k);
    }
    this.addExtras(kind, method, rec, out);
    return out;
  }

  /** A value reformatted for its field: a time, a numeric id, a word, a text. */
  private scalar(kind: string, key: string, value: unknown): unknown {
    if (isIsoTime(value)) return this.times.format(kind, key, value);
    if (isIdField(key)) {
      if (typeof value === 'string' && NUMERIC_ID.test(value)) return Number(value);
      if (Array.isArray(value)) return value.map((x) => (typeof x === 'string' && NUMERIC_ID.test(x) ? Number(x) : x));
    }
    if (TEXT_FIELDS.has(key) && typeof value === 'string')
      return formText(value, this.draw.pick(`text-form:${kind}:${key}`, TEXT_FORMS));
    return respell(this.draw, kind, key, value);
  }

  /** Puts a value at a dotted place; where that is taken, under the field's own name (or with `_`). */
  private put(out: Rec, place: string, value: unknown, own: string): void {
    const segs = place.split('.');
    let into = out;
    for (const seg of segs.slice(0, -1)) {
      const next = into[seg];
      if (next === undefined) {
        const made: Rec = {};
        this.created.add(made);
        into[seg] = made;
        into = made;
      } else if (isRecord(next) && this.created.has(next)) into = next;
      else {
        this.putFlat(out, own, value);
        return;
      }
    }
    const last = segs[segs.length - 1];
    if (last in into) this.putFlat(out, own, value);
    else into[last] = value;
  }

  private putFlat(out: Rec, own: string, value: unknown): void {
    let name = own;
    while (name in out) name = `${name}_`;
    out[name] = value;
  }

  /** Adds the seed's extra fields to a shaped record (`rec` is the record as the emulator made it). */
  addExtras(kind: string, method: string, rec: Rec, out: Rec): void {
    if (!this.draw.chance(`extras:${kind}`, 0.8)) return;
    const h = hash32(`${kind}:${String(rec._id ?? rec.jobId ?? rec.queueItemId ?? '')}`);
    for (const extra of this.extras) {
      if (extra === 'meta') {
        const meta = out.meta;
        if (meta === undefined) out.meta = { revision: 1 + (h % 3) };
        else if (isRecord(meta) && this.created.has(meta) && !('revision' in meta)) meta.revision = 1 + (h % 3);
        continue;
      }
      if (extra in out) continue;
      if (extra === '__v') out.__v = 0;
      else if (extra === 'object') out.object = objectName(kind);
      else if (extra === 'etag') out.etag = `W/"${h.toString(16)}"`;
      else if (extra === 'links') out.links = { self: `/v1/${method}` };
      else if (extra === 'tenant') out.tenant = 'eu-central-1';
      else if (extra === 'version') out.version = 1 + (h % 5);
      else if (extra === 'id' && '_id' in rec) out.id = 1000 + (h % 900_000);
    }
  }
}
