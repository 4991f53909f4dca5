// Where a field the reference does not name goes in the random shapes: its own name, the seed's
// naming convention (snake_case, PascalCase, kebab-case), an obvious alternative, a name no
// alias list could know, or one level down under a wrapper (`meta.when`). Drawn per record
// kind and field, so a field keeps its place in every answer of that kind.
import { FIELD_NAMES, NAME_CASES, WRAPPERS } from './catalogue.js';
import type { Draw } from './draw.js';

type Style = 'keep' | 'case' | 'known' | 'unknown' | 'nested';

const words = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/);

/** A field name in a naming convention; snake_case keeps a leading underscore (`_id`), the others drop it. */
export function inCase(key: string, style: (typeof NAME_CASES)[number]): string {
  const w = words(key.replace(/^_+/, ''));
  if (style === 'snake') return (key.startsWith('_') ? '_' : '') + w.join('_');
  if (style === 'kebab') return w.join('-');
  return w.map((x) => x.charAt(0).toUpperCase() + x.slice(1)).join('');
}

const ID_NAMES = { known: ['id'], unknown: ['uid', 'ref', 'handle'] };

export class Names {
  private readonly chosen = new Map<string, string>();
  private readonly weights: ReadonlyArray<readonly [Style, number]>;
  readonly nameCase: (typeof NAME_CASES)[number];
  readonly wrapper: string;

  constructor(private readonly draw: Draw) {
    this.nameCase = draw.pick('names:case', NAME_CASES);
    this.wrapper = draw.pick('names:wrapper', WRAPPERS);
    // Some seeds rename little, others nearly everything.
    const keep = 0.15 + 0.45 * draw.unit('names:keep');
    this.weights = [
      ['keep', keep],
      ['case', 0.15],
      ['known', 0.2],
      ['unknown', 0.2],
      ['nested', 0.1],
    ];
  }

  /** The dotted place of a field of a record kind. */
  place(kind: string, key: string): string {
    const id = `${kind}\u0000${key}`;
    let at = this.chosen.get(id);
    if (at === undefined) {
      at = this.draw_(kind, key);
      if (this.chosen.size < 20_000) this.chosen.set(id, at);
    }
    return at;
  }

  /** The places drawn so far that differ from the emulator's own names: `kind.field` → place. */
  moved(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [id, at] of this.chosen) {
      const [kind, key] = id.split('\u0000');
      if (at !== key) out[`${kind} ${key}`] = at;
    }
    return out;
  }

  private draw_(kind: string, key: string): string {
    const label = `name:${kind}:${key}`;
    const style = this.draw.weighted(`${label}:style`, this.weights);
    const names = key === '_id' ? ID_NAMES : FIELD_NAMES[key];
    switch (style) {
      case 'keep':
        return key;
      case 'case':
        return inCase(key, this.nameCase);
      case 'known':
        return names ? this.draw.pick(label, names.known) : inCase(key, this.nameCase);
      case 'unknown':
        return names ? this.draw.pick(label, names.unknown) : `${this.draw.pick(label, WRAPPERS)}.${key}`;
      case 'nested':
        return `${this.wrapper}.${names ? this.draw.pick(label, [key, ...names.known]) : key}`;
    }
  }
}
