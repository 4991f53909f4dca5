// The one argument checker, over the registry compiled to JSON Schema (src/api/method-index.ts):
// the client runs it before sending (a bad argument never costs budget) and the emulator before
// answering (a 400 exactly as the service refuses). Messages name the argument (its full path
// when nested) and the bound.
//
// Two layers: checkBodyShape holds the limits that apply to every body whatever the method
// (nesting, list length); checkArgsAgainstSchema adds the method's own schema (unknown, missing,
// null or empty arguments, types, bounds, allowed values).
//
// Two readers: the emulator checks the whole schema, guesses included (it stays strict). The
// client checks only what the service's documentation states (checkArgsForSending): the limits
// of every body, and the arguments the registry marks `x-stated` (docs/scripting.md "How calls
// are made"); an argument the registry only guesses goes to the service, which decides.
import { formatCount, LIMITS } from './limits.js';

export interface ArgumentProblem {
  /** Dotted path of the offending argument; empty for the body itself. */
  path: string;
  message: string;
}

const fmt = formatCount;

/** Nesting over 64 levels or a list over 10,000 items, found with one iterative walk (no recursion). */
export function checkBodyShape(body: unknown): ArgumentProblem | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: body, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > LIMITS.nestingMax) {
      return {
        path,
        message: `The body is nested more than ${LIMITS.nestingMax} levels deep${path ? ` (at ${path})` : ''}.`,
      };
    }
    if (Array.isArray(value)) {
      if (value.length > LIMITS.listItemsMax) {
        return {
          path,
          message: `The list ${path ? `\`${path}\` ` : ''}holds ${fmt(value.length)} items; at most ${fmt(LIMITS.listItemsMax)} are allowed.`,
        };
      }
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], depth: depth + 1, path: `${path}[${i}]` });
    } else {
      for (const [k, v] of Object.entries(value))
        stack.push({ value: v, depth: depth + 1, path: path ? `${path}.${k}` : k });
    }
  }
  return null;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  int: 'a whole number',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** The one wording of every argument problem. */
const problems = {
  unknown(method: string, fullKeys: string[]): ArgumentProblem {
    return {
      path: fullKeys[0] ?? '',
      message: `${method} does not take the argument${fullKeys.length > 1 ? 's' : ''} ${fullKeys.map((k) => `\`${k}\``).join(', ')}.`,
    };
  },
  missing: (path: string): ArgumentProblem => ({ path, message: `The argument \`${path}\` is required.` }),
  isNull: (path: string): ArgumentProblem => ({
    path,
    message: `The argument \`${path}\` is required and cannot be null.`,
  }),
  wrongType: (path: string, expected: string): ArgumentProblem => ({
    path,
    message: `The argument \`${path}\` must be ${TYPE_WORDS[expected] ?? expected}.`,
  }),
  tooSmall(path: string, origin: string, minimum: number): ArgumentProblem {
    const name = `\`${path}\``;
    if (origin === 'string' && minimum === 1)
      return { path, message: `The argument ${name} is required and cannot be empty.` };
    if (origin === 'string')
      return { path, message: `The argument ${name} must be at least ${fmt(minimum)} characters long.` };
    if (origin === 'array') return { path, message: `The list ${name} must hold at least ${fmt(minimum)} items.` };
    return { path, message: `The argument ${name} must be at least ${fmt(minimum)}.` };
  },
  tooBig(path: string, origin: string, maximum: number): ArgumentProblem {
    const name = `\`${path}\``;
    if (origin === 'string')
      return { path, message: `The argument ${name} is longer than ${fmt(maximum)} characters.` };
    if (origin === 'array') return { path, message: `The list ${name} holds more than ${fmt(maximum)} items.` };
    return { path, message: `The argument ${name} must be at most ${fmt(maximum)}.` };
  },
  badFormat: (path: string, pattern: string): ArgumentProblem => ({
    path,
    message: `The argument \`${path}\` is not in the expected form (${/^\^\\d\{4\}-\\d\{2\}-\\d\{2\}\$$/.test(pattern) ? 'a date like 2026-01-31' : `pattern ${pattern}`}).`,
  }),
  notAllowed: (path: string, values: unknown[]): ArgumentProblem => ({
    path,
    message: `The argument \`${path}\` must be one of: ${values.map(String).join(', ')}.`,
  }),
};

/** The subset of JSON Schema the registry's argument schemas compile to (z.toJSONSchema). */
export interface JsonSchema {
  type?: string;
  anyOf?: JsonSchema[];
  /**
   * What the service's documentation states of this argument: `required` (it, its type and
   * bounds, and that it is required), `shown` (it, its type and bounds; required or not is not
   * shown). Absent: the registry's guess, checked by the emulator only.
   */
  'x-stated'?: 'shown' | 'required';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
}

const patterns = new Map<string, RegExp>();
const regex = (source: string): RegExp => {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source)));
  return re;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * How a schema is read: `all` (the emulator: every rule, guesses included), `stated` (the client:
 * at each level only the arguments marked x-stated, unknown ones let through), `shown` (inside an
 * argument whose required-ness is not shown: null and the empty string are the service's call).
 */
type Mode = 'all' | 'stated' | 'shown';

function walk(
  schema: JsonSchema,
  value: unknown,
  path: string,
  method: string,
  mode: Mode = 'all',
): ArgumentProblem | null {
  // An enum's null is answered with the allowed values, everything else's null as "cannot be null".
  if (schema.enum) return schema.enum.includes(value) ? null : problems.notAllowed(path, schema.enum);
  if (value === null) return problems.isNull(path);
  if (schema.anyOf) {
    if (schema.anyOf.some((branch) => walk(branch, value, path, method, mode) === null)) return null;
    const types = schema.anyOf.map((b) => TYPE_WORDS[b.type ?? ''] ?? b.type).filter(Boolean);
    return { path, message: `The argument \`${path}\` must be ${types.join(' or ')}.` };
  }
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string') return problems.wrongType(path, 'string');
      const minLength = mode === 'shown' && schema.minLength === 1 ? undefined : schema.minLength;
      if (minLength !== undefined && value.length < minLength) return problems.tooSmall(path, 'string', minLength);
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        return problems.tooBig(path, 'string', schema.maxLength);
      if (schema.pattern !== undefined && !regex(schema.pattern).test(value))
        return problems.badFormat(path, schema.pattern);
      return null;
    }
    case 'integer':
    case 'number': {
      // Text for a number is "must be a number"; a fraction for an integer "a whole number".
      if (typeof value !== 'number' || Number.isNaN(value)) return problems.wrongType(path, 'number');
      if (schema.type === 'integer') {
        if (!Number.isInteger(value)) return problems.wrongType(path, 'int');
        // A whole number outside the safe range is refused for that range first, whatever the method's bound.
        if (value > Number.MAX_SAFE_INTEGER) return problems.tooBig(path, 'number', Number.MAX_SAFE_INTEGER);
        if (value < Number.MIN_SAFE_INTEGER) return problems.tooSmall(path, 'number', Number.MIN_SAFE_INTEGER);
      }
      if (schema.minimum !== undefined && value < schema.minimum)
        return problems.tooSmall(path, 'number', schema.minimum);
      if (schema.maximum !== undefined && value > schema.maximum)
        return problems.tooBig(path, 'number', schema.maximum);
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : problems.wrongType(path, 'boolean');
    case 'array': {
      if (!Array.isArray(value)) return problems.wrongType(path, 'array');
      const items = schema.items;
      if (items && (mode === 'all' || items['x-stated'])) {
        const itemMode = mode === 'all' ? 'all' : items['x-stated'] === 'required' ? 'stated' : 'shown';
        for (let i = 0; i < value.length; i++) {
          const p = walk(items, value[i], `${path}[${i}]`, method, itemMode);
          if (p) return p;
        }
      }
      if (schema.minItems !== undefined && value.length < schema.minItems)
        return problems.tooSmall(path, 'array', schema.minItems);
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        return problems.tooBig(path, 'array', schema.maxItems);
      return null;
    }
    case 'object': {
      if (!isPlainObject(value)) return problems.wrongType(path, 'object');
      const props = schema.properties ?? {};
      if (mode !== 'all') return walkStated(props, value, path, method);
      for (const [key, sub] of Object.entries(props)) {
        const v = value[key];
        if (v === undefined) {
          if (schema.required?.includes(key))
            return sub.enum ? problems.notAllowed(join(path, key), sub.enum) : problems.missing(join(path, key));
          continue;
        }
        const p = walk(sub, v, join(path, key), method);
        if (p) return p;
      }
      if (schema.additionalProperties === false) {
        const unknown = Object.keys(value).filter((k) => !Object.hasOwn(props, k));
        if (unknown.length)
          return problems.unknown(
            method,
            unknown.map((k) => join(path, k)),
          );
      }
      return null;
    }
    default:
      return null;
  }
}

/** The arguments of one level the documentation states; the others (unknown ones too) are let through. */
function walkStated(
  props: Record<string, JsonSchema>,
  value: Record<string, unknown>,
  path: string,
  method: string,
): ArgumentProblem | null {
  for (const [key, sub] of Object.entries(props)) {
    const stated = sub['x-stated'];
    const v = value[key];
    if (stated === 'required') {
      if (v === undefined)
        return sub.enum ? problems.notAllowed(join(path, key), sub.enum) : problems.missing(join(path, key));
      const p = walk(sub, v, join(path, key), method, 'stated');
      if (p) return p;
    } else if (stated === 'shown' && v !== undefined && v !== null) {
      const p = walk(sub, v, join(path, key), method, 'shown');
      if (p) return p;
    }
  }
  return null;
}

const NOT_AN_OBJECT: ArgumentProblem = { path: '', message: 'The body must be a JSON object holding the arguments.' };

/** Checks a method's arguments against its compiled schema, guesses included (the emulator); null when fine. */
export function checkArgsAgainstSchema(method: string, schema: JsonSchema, args: unknown): ArgumentProblem | null {
  if (!isPlainObject(args)) return NOT_AN_OBJECT;
  return checkBodyShape(args) ?? walk(schema, args, '', method);
}

/**
 * What the client checks before sending: the limits of every body (a JSON object, nesting,
 * list items), the prompt length wherever the method takes a prompt, and the arguments the
 * documentation states (the schema's x-stated ones). Without a schema (a method the registry
 * does not know), only the limits of every body.
 */
export function checkArgsForSending(
  method: string,
  schema: JsonSchema | undefined,
  args: unknown,
): ArgumentProblem | null {
  if (!isPlainObject(args)) return NOT_AN_OBJECT;
  const shape = checkBodyShape(args);
  if (shape) return shape;
  if (!schema) return null;
  const prompt = args.prompt;
  if (schema.properties?.prompt && typeof prompt === 'string' && prompt.length > LIMITS.promptMax)
    return problems.tooBig('prompt', 'string', LIMITS.promptMax);
  return walk(schema, args, '', method, 'stated');
}
