// A small language for reshaping an answer's data: which keys a record renames or drops,
// which values it spells otherwise, which ISO times become epoch milliseconds, which lists
// come in the other order, and the same for the records nested inside. The alternate shapes
// (alternate.ts) are a table of these rules, so the table is also what docs/emulator.md and
// test/emulator/shapes.test.ts read the choices from.

export interface Rule {
  /** On a list: the order inside the page is reversed. */
  reverse?: boolean;
  /** On a list: the rule of each element. */
  each?: Rule;
  /** On a record: the rules of the values at these keys (applied before the key is renamed). */
  fields?: Record<string, Rule>;
  /** On a record: these keys are left out. */
  drop?: string[];
  /** On a record: values spelled otherwise, per key ({ status: { queued: 'pending' } }). */
  values?: Record<string, Record<string, unknown>>;
  /** On a record: these ISO-8601 times become epoch milliseconds (numbers). */
  epochMs?: string[];
  /** On a record: keys renamed, default name → alternate name. */
  rename?: Record<string, string>;
  /** Anything the declarative parts cannot say (applied last). */
  map?: (value: unknown) => unknown;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Applies a rule to a value, returning a new value (the input is never changed). */
export function applyRule(value: unknown, rule: Rule | undefined): unknown {
  if (!rule) return value;
  let out: unknown = value;
  if (Array.isArray(value)) {
    const list = rule.each ? value.map((v) => applyRule(v, rule.each)) : [...value];
    out = rule.reverse ? list.reverse() : list;
  } else if (isRecord(value)) {
    out = reshapeRecord(value, rule);
  }
  return rule.map ? rule.map(out) : out;
}

function reshapeRecord(record: Rec, rule: Rule): Rec {
  const out: Rec = {};
  for (const [key, v] of Object.entries(record)) {
    if (rule.drop?.includes(key)) continue;
    let value = rule.fields?.[key] ? applyRule(v, rule.fields[key]) : v;
    const spelled = rule.values?.[key];
    if (spelled && typeof value === 'string' && value in spelled) value = spelled[value];
    if (rule.epochMs?.includes(key) && typeof value === 'string') {
      const ms = Date.parse(value);
      if (!Number.isNaN(ms)) value = ms;
    }
    out[rule.rename?.[key] ?? key] = value;
  }
  return out;
}

/** Every rename of a rule and the rules nested in it, as [default, alternate] pairs. */
export function renamesOf(rule: Rule | undefined): Array<[string, string]> {
  if (!rule) return [];
  const own = Object.entries(rule.rename ?? {});
  const nested = [rule.each, ...Object.values(rule.fields ?? {})].flatMap((r) => renamesOf(r));
  return [...own, ...nested];
}
