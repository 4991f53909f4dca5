// Arguments in the random shapes. The reference shows the arguments of a few methods only
// (`x-stated` in the registry); for each of the others the seed draws whether the service takes
// our name, another name as well, or only another one (ours then refused with 400, as the
// reference says of arguments a method does not take), and `cancel_job` may require the run's
// id. The service's own description (`GET /v1/tools`, `GET /v1/openapi.json`) says so.
import { type MethodInfo, methodInfo } from '../../../api/method-index.js';
import { checkArgsAgainstSchema } from '../../../api/validate.js';
import { refuse } from '../../refusal.js';
import { ARG_NAMES } from './catalogue.js';
import type { Draw } from './draw.js';
import { inCase } from './names.js';
import { isIdField } from './values.js';

type Rec = Record<string, unknown>;
type Schema = MethodInfo['schema'];

/** Arguments the reference names that the registry does not mark `x-stated`: never renamed. */
const ALSO_STATED: Record<string, string[]> = {
  edit_queued_message: ['expectedVersion'],
  get_storage_restore_status: ['restoreId'],
};

export interface ArgChoice {
  /** Our name (the registry's). */
  ours: string;
  /** The name the service takes. */
  theirs: string;
  /** Ours is taken too. */
  oursTaken: boolean;
  required: boolean;
}

export class Arguments {
  private readonly cache = new Map<string, { choices: ArgChoice[]; schema: Schema } | null>();

  constructor(private readonly draw: Draw) {}

  /** The arguments of a method the seed takes otherwise (none: the method is as ours). */
  of(method: string): { choices: ArgChoice[]; schema: Schema } | null {
    if (this.cache.has(method)) return this.cache.get(method)!;
    const info = methodInfo(method);
    const made = info ? this.make(method, info.schema) : null;
    this.cache.set(method, made);
    return made;
  }

  private make(method: string, schema: Schema): { choices: ArgChoice[]; schema: Schema } | null {
    const props = (schema.properties ?? {}) as Record<string, Rec>;
    const required = new Set<string>((schema.required as string[] | undefined) ?? []);
    const choices: ArgChoice[] = [];
    const taken = new Set(Object.keys(props));
    for (const [ours, prop] of Object.entries(props)) {
      if (prop['x-stated'] || ours === 'projectId' || ALSO_STATED[method]?.includes(ours)) continue;
      const label = `arg:${method}:${ours}`;
      const mode = this.draw.weighted(`${label}:mode`, [
        ['ours', 0.55],
        ['alias', 0.2],
        ['renamed', 0.25],
      ] as const);
      const theirs =
        mode === 'ours' ? ours : this.draw.pick(label, ARG_NAMES[ours] ?? [inCase(ours, 'snake'), `${ours}Ref`]);
      const clash = theirs !== ours && taken.has(theirs);
      const needed =
        required.has(ours) ||
        (method === 'cancel_job' && ours === 'jobId' && this.draw.chance(`${label}:required`, 0.5));
      if (!clash) taken.add(theirs);
      choices.push({ ours, theirs: clash ? ours : theirs, oursTaken: mode !== 'renamed' || clash, required: needed });
    }
    if (choices.every((c) => c.theirs === c.ours && c.required === required.has(c.ours))) return null;
    return { choices, schema: this.describe(schema, choices) };
  }

  /** The method's JSON Schema as this service describes it. */
  private describe(schema: Schema, choices: ArgChoice[]): Schema {
    const props = { ...((schema.properties ?? {}) as Record<string, Rec>) };
    const required = new Set<string>((schema.required as string[] | undefined) ?? []);
    for (const c of choices) {
      const prop = props[c.ours];
      if (!c.oursTaken) delete props[c.ours];
      props[c.theirs] = prop;
      required.delete(c.ours);
      // A required argument with two names cannot be said in the schema: checked apart.
      if (c.required && (c.theirs === c.ours || !c.oursTaken)) required.add(c.theirs);
    }
    return { ...schema, properties: props, required: [...required] } as Schema;
  }

  /** Arguments as sent → as the emulator's domains take them; refuses with 400 what this service would. */
  incoming(method: string, sent: Rec): Rec {
    const args: Rec = { ...sent };
    for (const [k, v] of Object.entries(args)) if (typeof v === 'number' && isIdField(k)) args[k] = String(v);
    const shaped = this.of(method);
    if (!shaped) return args;
    const problem = checkArgsAgainstSchema(method, shaped.schema, args);
    if (problem) refuse(400, problem.message, { reason: 'invalid-argument', argument: problem.path || null });
    for (const c of shaped.choices) {
      if (c.theirs === c.ours) continue;
      if (c.required && c.oursTaken && args[c.ours] === undefined && args[c.theirs] === undefined)
        refuse(400, `The argument \`${c.theirs}\` is required.`, { reason: 'invalid-argument', argument: c.theirs });
      if (c.theirs in args) {
        if (args[c.ours] === undefined) args[c.ours] = args[c.theirs];
        delete args[c.theirs];
      }
    }
    return args;
  }

  /** `GET /v1/tools` and `GET /v1/openapi.json` with this service's argument names. */
  tools(data: unknown): unknown {
    if (!Array.isArray(data)) return data;
    return data.map((t: Rec) => {
      const shaped = this.of(String(t.name));
      return shaped ? { ...t, inputSchema: shaped.schema } : t;
    });
  }

  openApi(doc: unknown): unknown {
    const paths = (doc as { paths?: Record<string, Rec> })?.paths;
    if (!paths) return doc;
    const out: Record<string, Rec> = {};
    for (const [path, item] of Object.entries(paths)) {
      const shaped = path.startsWith('/v1/') ? this.of(path.slice(4)) : null;
      const post = item.post as Rec | undefined;
      out[path] =
        shaped && post
          ? {
              ...item,
              post: {
                ...post,
                requestBody: { required: true, content: { 'application/json': { schema: shaped.schema } } },
              },
            }
          : item;
    }
    return { ...(doc as Rec), paths: out };
  }
}
