// A command is a declarative definition (Wrangler-style): metadata, arguments, options,
// examples and run(options, ctx). program.ts turns the tree into commander commands; the same
// tree feeds help and the completion scripts.
import type { Context, ContextOverrides } from '../context.js';
import { UsageError } from '../errors.js';
import type { InferredOptions } from './inferred-options.js';

export type { ArgsOf, FlagsOf, InferredOptions } from './inferred-options.js';

export interface ArgumentDefinition {
  /** camelCase key under which run() receives it. */
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  /**
   * An optional argument named `site`, left out with no default site, is picked from a list on a
   * terminal before the command runs (core/run.ts); false: the command decides (`site use`).
   */
  pick?: boolean;
  /** Values shell completion offers for it (not enforced): 'files', or words (a function: loaded only when generating). */
  suggest?: 'files' | SuggestedWords | (() => Promise<SuggestedWords>);
}

export type SuggestedWords = ReadonlyArray<string | { value: string; description?: string }>;

export interface OptionDefinition {
  /** commander flags, e.g. '-l, --limit <n>' or '--no-follow'. */
  flags: string;
  description: string;
  /** Allowed values (shown in help, checked before anything is sent, offered by completion). */
  choices?: readonly string[];
  default?: unknown;
  /**
   * Parses the raw text; throw UsageError on a bad value. Repeated flags get the previous value.
   * What it returns is the option's type in run() (inferred-options.ts).
   */
  parse?: (value: string, previous: unknown) => unknown;
  hidden?: boolean;
}

/**
 * A command. `O` is what run() receives; defineCommand infers it from `args` and `options`
 * (their literal types: `A` and `P`), so the two cannot drift.
 */
export interface CommandDefinition<
  O = Record<string, unknown>,
  A extends readonly ArgumentDefinition[] = readonly ArgumentDefinition[],
  P extends readonly OptionDefinition[] = readonly OptionDefinition[],
> {
  name: string;
  aliases?: string[];
  /** Left out of help and completion (the `demo` behind npm start). Top-level commands only. */
  hidden?: boolean;
  summary: string;
  description?: string;
  args?: A;
  options?: P;
  examples?: string[];
  /** The usage line of --help when commander's ("[site] [file...]") says less than the truth. */
  usage?: string;
  /** Output of --json, for the help text. */
  jsonFields?: string;
  /**
   * The exit codes this command means, in one line after the examples: `0 live, 8 still running
   * at --timeout, 130 Ctrl-C; 1 refused or failed, 2 usage, 4 auth` (every command that runs).
   */
  exitCodes?: string;
  /**
   * Where the rest is (gh's "Learn more"): a section of the docs, `docs/guide.md#email-domains`.
   * The help's description stays a few lines; the essay lives there (test/core/help-shape.test.ts).
   * A verb without one points where its noun does.
   */
  learnMore?: string;
  /** Subcommands (a noun's verbs). A definition may have both run and subcommands. */
  subcommands?: AnyCommandDefinition[];
  /**
   * Returns an exit code, or nothing for 0. Positional arguments arrive under their names. `cli`
   * is for the few commands that run or describe the CLI itself.
   */
  run?: (options: O, ctx: Context, cli: Cli) => Promise<number | void>;
}

/** A definition whatever its options: how the tree holds its commands. */
export type AnyCommandDefinition = CommandDefinition<never>;

/**
 * The CLI itself, handed to run() by core/run.ts: the demo's tour runs command lines, and
 * `completion --generate` describes the whole tree. A parameter rather than an import, so that
 * no command imports the machinery that loads the commands.
 */
export interface Cli {
  /** Runs a command line in this process, as `sitebuilder …` would; resolves to its exit code. */
  run(argv: string[], overrides?: ContextOverrides): Promise<number>;
  /** Every noun's definition, in the order of the tree. */
  commands(): Promise<AnyCommandDefinition[]>;
}

/** The exit codes every command that calls the service may end with, beside its own (`exitCodes`). */
export const SERVICE_EXITS = '1 refused or failed, 2 usage, 4 auth';

/**
 * What run() of a command receives: `OptionsOf<typeof list>`, for helpers that take them. A
 * function declared apart that takes all of them is called with a return type,
 * `run: (o, ctx): Promise<number> => runRestore(o, ctx)`: `run: runRestore` would make the
 * definition's type depend on itself.
 */
export type OptionsOf<D> = D extends CommandDefinition<infer O, infer _A, infer _P> ? O : never;

/**
 * Refuses a list whose flags or names were widened to `string` (a list typed
 * `OptionDefinition[]` rather than kept `as const`): run() would take any key.
 */
type LiteralNames<
  A extends readonly ArgumentDefinition[],
  P extends readonly OptionDefinition[],
> = string extends P[number]['flags']
  ? { readonly 'options need their literal flags: write the list inline or `as const`': never }
  : string extends A[number]['name']
    ? { readonly 'args need their literal names: write the list inline or `as const`': never }
    : unknown;

/**
 * A command, with run()'s options inferred from the declared arguments and options
 * (inferred-options.ts). The `const` parameters keep the literal flags ('-L, --limit <n>').
 */
export function defineCommand<
  const A extends readonly ArgumentDefinition[] = readonly [],
  const P extends readonly OptionDefinition[] = readonly [],
>(
  def: CommandDefinition<InferredOptions<A, P>, A, P> & LiteralNames<A, P>,
): CommandDefinition<InferredOptions<A, P>, A, P>;
export function defineCommand(def: AnyCommandDefinition): AnyCommandDefinition {
  return def;
}

/** Parses a positive whole number flag value. */
export function parsePositiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
      throw new UsageError(`${flag} takes a whole number of 1 or more, not ${JSON.stringify(value)}.`);
    }
    return n;
  };
}

/** Parses a duration like 90, 90s, 5m, 1h into milliseconds. */
export function parseDuration(flag: string) {
  return (value: string): number => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
    if (!m) {
      throw new UsageError(`${flag} takes a duration such as 90s, 5m or 1h, not ${JSON.stringify(value)}.`);
    }
    const unit = m[2] ?? 's';
    const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
    return Math.round(Number(m[1]) * factor);
  };
}
