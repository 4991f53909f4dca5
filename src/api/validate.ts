// Argument validation shared by the client (a bad argument never costs budget) and the
// emulator (which refuses with 400 exactly as the service does). Messages name the argument
// (its full path when nested) and the bound.
import type { MethodSpec } from './methods.js';
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
      return { path, message: `The body is nested more than ${LIMITS.nestingMax} levels deep${path ? ` (at ${path})` : ''}.` };
    }
    if (Array.isArray(value)) {
      if (value.length > LIMITS.listItemsMax) {
        return { path, message: `The list ${path ? `\`${path}\` ` : ''}holds ${fmt(value.length)} items; at most ${fmt(LIMITS.listItemsMax)} are allowed.` };
      }
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], depth: depth + 1, path: `${path}[${i}]` });
    } else {
      for (const [k, v] of Object.entries(value)) stack.push({ value: v, depth: depth + 1, path: path ? `${path}.${k}` : k });
    }
  }
  return null;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  format?: string;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  values?: unknown[];
  keys?: string[];
}

function pathString(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function valueAt(root: unknown, path: PropertyKey[]): { present: boolean; value: unknown } {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, p as string)) {
      return { present: false, value: undefined };
    }
    cur = (cur as Record<string, unknown>)[p as string];
  }
  return { present: true, value: cur };
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  int: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function describe(issue: Issue, args: unknown, method: string): ArgumentProblem {
  const path = pathString(issue.path);
  const name = `\`${path}\``;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      const full = keys.map((k) => (path ? `${path}.${k}` : k));
      return {
        path: full[0] ?? path,
        message: `${method} does not take the argument${keys.length > 1 ? 's' : ''} ${full.map((k) => `\`${k}\``).join(', ')}.`,
      };
    }
    case 'invalid_type': {
      const at = valueAt(args, issue.path);
      if (!at.present || at.value === undefined) return { path, message: `The argument ${name} is required.` };
      if (at.value === null) return { path, message: `The argument ${name} is required and cannot be null.` };
      const want = TYPE_WORDS[issue.expected ?? ''] ?? issue.expected ?? 'another type';
      return { path, message: `The argument ${name} must be ${want}.` };
    }
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) === 1) {
        return { path, message: `The argument ${name} is required and cannot be empty.` };
      }
      if (issue.origin === 'string') return { path, message: `The argument ${name} must be at least ${fmt(Number(issue.minimum))} characters long.` };
      if (issue.origin === 'array') return { path, message: `The list ${name} must hold at least ${fmt(Number(issue.minimum))} items.` };
      return { path, message: `The argument ${name} must be at least ${fmt(Number(issue.minimum))}.` };
    }
    case 'too_big': {
      if (issue.origin === 'string') return { path, message: `The argument ${name} is longer than ${fmt(Number(issue.maximum))} characters.` };
      if (issue.origin === 'array') return { path, message: `The list ${name} holds more than ${fmt(Number(issue.maximum))} items.` };
      return { path, message: `The argument ${name} must be at most ${fmt(Number(issue.maximum))}.` };
    }
    case 'invalid_value':
      return { path, message: `The argument ${name} must be one of: ${(issue.values ?? []).map(String).join(', ')}.` };
    default:
      return { path, message: `The argument ${name} is not valid.` };
  }
}

/** Validates a method's arguments against the registry; null when they are fine. */
export function validateArgs(spec: MethodSpec, args: unknown): ArgumentProblem | null {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { path: '', message: 'The body must be a JSON object holding the arguments.' };
  }
  const shape = checkBodyShape(args);
  if (shape) return shape;
  const result = spec.args.safeParse(args);
  if (result.success) return null;
  return describe(result.error.issues[0] as unknown as Issue, args, spec.name);
}
