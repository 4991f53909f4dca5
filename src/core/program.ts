// The commander program over the command tree: it reads every command line (over the one noun
// that runs, or over all of them for help and completion), and gives help, usage errors and
// suggestions.
import { Command, Option } from 'commander';
import type { IO } from '../io/io.js';
import type { AnyCommandDefinition } from './define.js';
import type { HelpLayout } from './help-layout.js';
import { GLOBAL_OPTIONS, PROGRAM_DESCRIPTION, VERSION, VERSION_FLAGS } from './global-options.js';

/**
 * Runs a command: its definition, the options run() gets, optsWithGlobals(), and the long flags
 * that appeared on the command line (check-input.ts refuses `--wait --no-wait`).
 */
export type Execute = (
  def: AnyCommandDefinition,
  options: Record<string, unknown>,
  withGlobals: Record<string, unknown>,
  given: ReadonlySet<string>,
) => Promise<void>;

type RunCommand = (def: AnyCommandDefinition, cmd: Command, positionals: unknown[]) => Promise<void>;

/** The long flags each command read from the command line, from commander's `option:<name>` events. */
const givenFlags = new WeakMap<Command, Set<string>>();

function flagsGiven(cmd: Command): Set<string> {
  const all = new Set<string>();
  for (let c: Command | null = cmd; c; c = c.parent) for (const f of givenFlags.get(c) ?? []) all.add(f);
  return all;
}

/** Help text added after the generated one, laid out at the help's width when it is printed. */
const helpAfter = (layout: (width: number) => string) => (context: { error: boolean; command: Command }) => {
  const output = context.command.configureOutput();
  return layout((context.error ? output.getErrHelpWidth : output.getOutHelpWidth)?.() ?? 80);
};

function buildCommand(
  def: AnyCommandDefinition,
  runWith: RunCommand,
  layout?: HelpLayout,
  noun?: AnyCommandDefinition,
  words?: string[],
): Command {
  const cmd = new Command(def.name);
  cmd.summary(def.summary).description(def.description ?? def.summary);
  cmd.configureHelp({
    ...layout?.configuration,
    // The program's own options are one line at the end (help-after.ts), as gh's
    // "inherited flags" are short: the command's own flags are what its help is about.
    showGlobalOptions: false,
  });
  if (def.usage) cmd.usage(def.usage);
  for (const alias of def.aliases ?? []) cmd.alias(alias);
  for (const a of def.args ?? []) {
    const label = `${a.name}${a.variadic ? '...' : ''}`;
    cmd.argument(a.required ? `<${label}>` : `[${label}]`, a.description);
  }
  const given = new Set<string>();
  givenFlags.set(cmd, given);
  for (const o of def.options ?? []) {
    const opt = new Option(o.flags, o.description);
    if (o.choices) opt.choices(o.choices as string[]);
    if (o.default !== undefined) opt.default(o.default);
    if (o.parse) opt.argParser(o.parse as (v: string, p: unknown) => unknown);
    if (o.hidden) opt.hideHelp();
    cmd.addOption(opt);
    if (opt.long) cmd.on(`option:${opt.name()}`, () => given.add(opt.long as string));
  }
  // gh's shape after the flags (help-after.ts): only where a help may print, so with its layout.
  if (layout)
    cmd.addHelpText(
      'after',
      helpAfter((width) => layout.after(def, cmd, width, noun)),
    );
  // A subcommand the command line does not name, where no help can print (`words` given): its
  // name and aliases only, all commander needs to dispatch past it or to suggest it for a
  // mistyped word ("Did you mean list?"). Every verb's options cost `site list` about 0.5 ms.
  for (const sub of def.subcommands ?? [])
    cmd.addCommand(
      !words?.length || [sub.name, ...(sub.aliases ?? [])].includes(words[0])
        ? buildCommand(sub, runWith, layout, def, words?.slice(1))
        : new Command(sub.name).aliases(sub.aliases ?? []),
    );
  if (def.run) {
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      await runWith(def, self, params.slice(0, (def.args ?? []).length));
    });
  }
  // A noun without run of its own: commander shows its help when no verb is given, and answers
  // an unknown verb with "unknown command … (Did you mean list?)".
  return cmd;
}

/**
 * The program over the given nouns (all of them for help and completion; one to run a command),
 * its help laid out with `layout` (help-layout.ts, loaded only where a help may print: without
 * it, commander's own). `words`, the command line's (commandWords), where no help can print:
 * the subcommands it does not name are built with their names only.
 */
export function buildProgram(
  commands: AnyCommandDefinition[],
  execute: Execute = async () => {},
  layout?: HelpLayout,
  words?: string[],
): Command {
  const program = new Command('sitebuilder');
  program.description(PROGRAM_DESCRIPTION).version(VERSION, VERSION_FLAGS, 'print the version');
  for (const o of GLOBAL_OPTIONS) program.option(o.flags, o.description);
  program
    // The program's list of commands names them only, as gh does: their arguments and plural
    // aliases are in each command's own help, and the descriptions keep room at 80 columns.
    .configureHelp({ ...layout?.configuration, subcommandTerm: (c: Command) => c.name() })
    .showSuggestionAfterError(true);
  if (layout) program.addHelpText('after', helpAfter(layout.programAfter));
  const run: RunCommand = (def, cmd, positionals) =>
    execute(def, commandOptions(def, cmd, positionals), cmd.optsWithGlobals(), flagsGiven(cmd));
  for (const def of commands)
    program.addCommand(buildCommand(def, run, layout, undefined, words?.slice(1)), { hidden: def.hidden });
  return program;
}

/** commander's camelcase(): `raw-field` → `rawField`, the key of an argument as of an option. */
const camel = (s: string) => s.split('-').reduce((acc, word) => acc + word[0].toUpperCase() + word.slice(1));

/**
 * The words of a command line before its first unknown option, as commander reads them with the
 * program's own options (`-qp NAME site list` → site, list), and what follows. run() finds the
 * noun among them; up to `--`, which ends the options.
 */
export function commandWords(argv: string[]): { words: string[]; rest: string[] } {
  const end = argv.indexOf('--');
  const reader = new Command()
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .option(VERSION_FLAGS);
  for (const o of GLOBAL_OPTIONS) reader.option(o.flags);
  try {
    const { operands, unknown } = reader.parseOptions(end < 0 ? argv : argv.slice(0, end));
    return { words: operands, rest: end < 0 ? unknown : [...unknown, ...argv.slice(end)] };
  } catch {
    return { words: [], rest: argv }; // a global option without its value: the program says so
  }
}

/**
 * The options run() receives. commander lets a parent command parse the options it shares with a
 * subcommand (`storage-restore plan --backup X`), so a subcommand also gets its non-root
 * ancestors' values; the arguments come last, under their names.
 */
function commandOptions(def: AnyCommandDefinition, cmd: Command, positionals: unknown[]): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const ancestors: Command[] = [];
  for (let c = cmd.parent; c?.parent; c = c.parent) ancestors.unshift(c);
  for (const c of ancestors) Object.assign(options, c.opts());
  Object.assign(options, cmd.opts());
  (def.args ?? []).forEach((a, i) => {
    options[camel(a.name)] = positionals[i];
  });
  return options;
}

/**
 * Runs argv through commander: the command, or help, --version, a usage error with suggestions.
 * Errors are thrown for run() to report.
 */
export async function runProgram(
  argv: string[],
  commands: AnyCommandDefinition[],
  execute: Execute,
  io: IO,
  wantsJson: boolean,
): Promise<void> {
  // The help's layout is loaded only where commander may print a help: asked for (`help` words
  // are --help by now), or no verb named (a noun without one shows its help).
  const { words } = commandWords(argv);
  const help = argv.some((a) => /^-(-help|[a-zA-Z]*h[a-zA-Z]*)$/.test(a)) || words.length < 2;
  const program = help
    ? buildProgram(commands, execute, (await import('./help-layout.js')).HELP_LAYOUT)
    : buildProgram(commands, execute, undefined, words);
  // exitOverride and configureOutput are not inherited by commands added before them, so every
  // command gets them. Help is wrapped at 80 columns, as in the texts bin/ prints without the CLI,
  // or at the width of a narrower terminal.
  const helpWidth = (tty: boolean) => (tty ? Math.min(80, io.columns) : 80);
  const configure = (c: Command) => {
    c.exitOverride();
    c.configureOutput({
      getOutHelpWidth: () => helpWidth(io.stdoutIsTTY),
      getErrHelpWidth: () => helpWidth(io.stderrIsTTY),
      writeOut: (s) => io.out(s),
      // Under --json stderr carries only the JSON error (main writes it), not a help text.
      writeErr: (s) => !wantsJson && io.err(s),
      outputError: (s, write) => !wantsJson && write(s),
    });
    c.commands.forEach(configure);
  };
  configure(program);
  await program.parseAsync(argv, { from: 'user' });
}
