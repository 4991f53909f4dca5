// The quick argument reader. Running a command does not load commander (about 120 KB to parse,
// over a tenth of the start-up budget): this reads argv from the same definitions, following
// commander's own algorithm (parseOptions, _parseCommand, _processArguments in commander 14) step
// by step. It gives an answer only when commander would run the command; for everything else
// (help, --version, a typo, a missing value, a bad choice, a value its parser refuses) it
// answers undefined and main() hands the same argv to commander, which prints its usual error or
// help. test/unit/argv.test.ts holds the two to the same result over every command.
import type { CommandDefinition, OptionDefinition } from './commands/define.js';
import { VERSION_FLAGS } from './global-options.js';

/** What commander would hand the action: the command path, its options and its arguments. */
export interface ParsedArgv {
  /** Noun first, the command that runs last. */
  path: CommandDefinition<any>[];
  /** Every level's option values, program first: commander's optsWithGlobals(). */
  withGlobals: Record<string, unknown>;
  /** Options of the command and its non-root ancestors, then the arguments under their names. */
  options: Record<string, unknown>;
}

export interface Flag {
  short?: string;
  long?: string;
  /** commander's attributeName(). */
  key: string;
  takesValue: boolean;
  negate: boolean;
  def: OptionDefinition;
  /** --version: commander prints the version; we leave that to it. */
  handOver?: boolean;
}

interface Level {
  flags: Flag[];
  values: Record<string, unknown>;
  subcommands: CommandDefinition<any>[];
}

/** Thrown inside the reader: commander should take this argv. */
class HandOver extends Error {}

/** commander's camelcase(): `raw-field` → `rawField`, for option keys and argument names. */
export const camel = (s: string) => s.split('-').reduce((acc, word) => acc + word[0].toUpperCase() + word.slice(1));

/** '-l, --limit <n>' → Flag, the way commander's Option constructor splits it. */
export function flagOf(def: OptionDefinition): Flag {
  const m = /^(?:(-[A-Za-z0-9]), )?(--[a-z0-9][a-z0-9-]*)(?: <([a-zA-Z0-9=-]+)>)?$/.exec(def.flags);
  if (!m) throw new HandOver(); // a shape this reader does not know (optional or variadic values)
  const long = m[2];
  const negate = long.startsWith('--no-');
  return { short: m[1], long, key: camel(long.slice(negate ? 5 : 2)), takesValue: m[3] !== undefined, negate, def };
}

function levelOf(options: readonly OptionDefinition[], subcommands: CommandDefinition<any>[]): Level {
  const flags: Flag[] = [];
  const values: Record<string, unknown> = {};
  for (const def of options) {
    const flag = flagOf(def);
    // commander: --no-foo makes foo default to true, unless --foo came first.
    if (flag.negate) {
      if (!flags.some((f) => f.long === `--${flag.long!.slice(5)}`))
        values[flag.key] = def.default === undefined ? true : def.default;
    } else if (def.default !== undefined) values[flag.key] = def.default;
    flags.push(flag);
  }
  return { flags, values, subcommands };
}

const maybeOption = (arg: string) => arg.length > 1 && arg[0] === '-';
const negativeNumber = (arg: string) => /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(arg);

function setValue(level: Level, flag: Flag, raw: string | undefined): void {
  if (flag.handOver) throw new HandOver();
  if (raw === undefined) {
    level.values[flag.key] = !flag.negate;
    return;
  }
  const { parse, choices } = flag.def;
  // cli.ts gives commander the parser after the choices, so the parser wins when there are both.
  if (parse) {
    try {
      level.values[flag.key] = parse(raw, level.values[flag.key]);
    } catch {
      throw new HandOver(); // commander calls it again and reports what it throws
    }
  } else if (choices && !choices.includes(raw)) {
    throw new HandOver();
  } else {
    level.values[flag.key] = raw;
  }
}

/** commander's parseOptions: consumes this level's options, returns operands and the rest. */
function parseOptions(level: Level, args: string[], digitShorts: boolean): { operands: string[]; unknown: string[] } {
  const operands: string[] = [];
  const unknown: string[] = [];
  let dest = operands;
  const find = (arg: string) => level.flags.find((f) => f.short === arg || f.long === arg);
  let group: string | undefined;
  let i = 0;
  while (i < args.length || group !== undefined) {
    const arg = group ?? args[i++];
    group = undefined;
    if (arg === '--') {
      if (dest === unknown) dest.push(arg);
      dest.push(...args.slice(i));
      break;
    }
    if (maybeOption(arg)) {
      const flag = find(arg);
      if (flag) {
        if (flag.takesValue) {
          const value = args[i++];
          if (value === undefined) throw new HandOver(); // "argument missing"
          setValue(level, flag, value);
        } else setValue(level, flag, undefined);
        continue;
      }
    }
    if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      const flag = find(`-${arg[1]}`);
      if (flag) {
        if (flag.takesValue) setValue(level, flag, arg.slice(2));
        else {
          setValue(level, flag, undefined);
          group = `-${arg.slice(2)}`;
        }
        continue;
      }
    }
    if (/^--[^=]+=/.test(arg)) {
      const at = arg.indexOf('=');
      const flag = find(arg.slice(0, at));
      if (flag?.takesValue) {
        setValue(level, flag, arg.slice(at + 1));
        continue;
      }
    }
    if (
      dest === operands &&
      maybeOption(arg) &&
      !(level.subcommands.length === 0 && negativeNumber(arg) && !digitShorts)
    )
      dest = unknown;
    dest.push(arg);
  }
  return { operands, unknown };
}

/**
 * Reads argv for the given program options and the one noun it names. Undefined: let commander
 * answer (help, version, or a usage error).
 */
export function parseArgv(
  argv: string[],
  programOptions: readonly OptionDefinition[],
  noun: CommandDefinition<any>,
): ParsedArgv | undefined {
  try {
    return read(argv, programOptions, noun);
  } catch (err) {
    if (err instanceof HandOver) return undefined;
    throw err;
  }
}

function read(argv: string[], programOptions: readonly OptionDefinition[], noun: CommandDefinition<any>): ParsedArgv {
  const program = levelOf(programOptions, [noun]);
  program.flags.push({ ...flagOf({ flags: VERSION_FLAGS, description: '' }), handOver: true });
  const levels: Level[] = [program];
  const path: CommandDefinition<any>[] = [];
  let shortsSoFar = program.flags;
  let operands: string[] = [];
  let unknown = argv;
  for (;;) {
    const level = levels[levels.length - 1];
    const digitShorts = shortsSoFar.some((f) => f.short !== undefined && /^-\d$/.test(f.short));
    const parsed = parseOptions(level, unknown, digitShorts);
    operands = operands.concat(parsed.operands);
    unknown = parsed.unknown;
    const next = operands.length
      ? level.subcommands.find((c) => c.name === operands[0] || (c.aliases ?? []).includes(operands[0]))
      : undefined;
    if (next) {
      path.push(next);
      const child = levelOf(next.options ?? [], next.subcommands ?? []);
      levels.push(child);
      shortsSoFar = shortsSoFar.concat(child.flags);
      operands = operands.slice(1);
      continue;
    }
    // No subcommand named: commander runs this level's action. Without one it shows help or
    // "unknown command"; an option left unknown is an error.
    const def = path[path.length - 1];
    if (!def?.run || unknown.length > 0) throw new HandOver();
    const declared = def.args ?? [];
    declared.forEach((a, i) => {
      if (a.required && operands[i] == null) throw new HandOver(); // "missing required argument"
    });
    if (!declared[declared.length - 1]?.variadic && operands.length > declared.length) throw new HandOver(); // "too many arguments"
    const options: Record<string, unknown> = {};
    for (const l of levels.slice(1)) Object.assign(options, l.values);
    declared.forEach((a, i) => {
      options[camel(a.name)] = a.variadic ? operands.slice(i) : operands[i];
    });
    // optsWithGlobals(): "globals overwrite locals", the program's values last.
    return { path, withGlobals: Object.assign({}, ...levels.map((l) => l.values).reverse()), options };
  }
}
