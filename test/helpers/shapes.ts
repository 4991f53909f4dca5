// Which shapes the emulators of this test run answer in (vitest.config.ts sets
// SITEBUILDER_EMULATOR_SHAPES per project), and what a test reads from it instead of
// hard-coding one shape: the form of generated ids, and the environment a spawned
// `sitebuilder emulator` needs to inherit them.
import { idPattern, shapesFromEnv, type ShapesName } from '../../src/emulator/index.js';
import { chatCode, METHOD_RULES } from '../../src/emulator/shapes/alternate.js';
import { createShapes } from '../../src/emulator/shapes/index.js';
import type { Rule } from '../../src/emulator/shapes/rules.js';

export const SHAPES: ShapesName = shapesFromEnv(process.env);

/** A RegExp source (no anchors, no groups) matching the generated ids of a kind: 'job', 'qmsg', 'dep', 'req', … */
export const ID = (kind: string): string => idPattern(kind, SHAPES);

/** The id pattern as a RegExp, anchored: `^…$`. */
export const idRegExp = (kind: string): RegExp => new RegExp(`^${ID(kind)}$`);

/** What a spawned CLI or emulator needs in its environment to take the same shapes. */
export const shapesEnv = (): Record<string, string> => ({ SITEBUILDER_EMULATOR_SHAPES: SHAPES });

/**
 * A RegExp from a template whose ${…} name id kinds: rx('m')`^job\t${'job'}$` matches a job
 * id in either shapes. The literal parts are regular expression source, as in /…/.
 */
export function rx(flags = '') {
  return (strings: TemplateStringsArray, ...kinds: string[]): RegExp =>
    new RegExp(String.raw({ raw: strings.raw }, ...kinds.map(ID)), flags);
}

/** The rule of a method at a dotted path of its data ('error', 'items'); lists are entered. */
function ruleAt(method: string, path: string[]): Rule | undefined {
  let rule: Rule | undefined = METHOD_RULES[method];
  if (rule?.each) rule = rule.each;
  for (const seg of path) {
    rule = rule?.fields?.[seg];
    if (rule?.each) rule = rule.each;
  }
  return rule;
}

/**
 * The name a field of the default shapes has in the current shapes: fieldName('get_job',
 * 'error.code') is `code`, or `type` in the alternate shapes.
 */
export function fieldName(method: string, path: string): string {
  const segs = path.split('.');
  const last = segs.pop()!;
  return SHAPES === 'default' ? last : (ruleAt(method, segs)?.rename?.[last] ?? last);
}

/** How a value of the default shapes is spelled in the current shapes: spelled('list_messages', 'items.role', 'agent'). */
export function spelled(method: string, path: string, value: string): unknown {
  const segs = path.split('.');
  const last = segs.pop()!;
  return SHAPES === 'default' ? value : (ruleAt(method, segs)?.values?.[last]?.[value] ?? value);
}

/**
 * The records of a listing's raw data (as a test reads it over HTTP), in the default shapes'
 * order: under data.items or data itself, or where the current shapes put them.
 */
export function itemsIn(method: string, data: any): any[] {
  const list = Array.isArray(data) ? data : data?.[fieldName(method, 'items')];
  if (!Array.isArray(list)) throw new Error(`${method} answered no list: ${JSON.stringify(data)?.slice(0, 200)}`);
  const rule = METHOD_RULES[method];
  const reversed = Array.isArray(data) ? rule?.reverse : rule?.fields?.items?.reverse;
  return SHAPES === 'alternate' && reversed ? [...list].reverse() : list;
}

/** A `data.code` of a refusal (the site chat error codes), as the current shapes spell it. */
export const refusalCode = (code: string): string => (SHAPES === 'default' ? code : chatCode(code));

/** A record of the default shapes as the current shapes send it (for pinning what a command passes through). */
export const asService = (method: string, data: unknown): any => createShapes(SHAPES).outgoing(method, data);
