// main(argv, overrides): builds the commander program from the command tree, runs it, and maps
// every error to its exit code in one place. Only this file and bin/ touch process.exit.
import { Command, CommanderError, Option } from 'commander';
import { systemClock, type Clock } from './clock.js';
import { ConfigStore, configDir } from './config/store.js';
import { createContext, type Context, type GlobalOptions } from './context.js';
import { CliError, ExitCode, InterruptedError } from './errors.js';
import { decideColorLevel, IO, systemIO } from './io/io.js';
import { EnquirerPrompter, type Prompter } from './io/prompter.js';
import { Interrupts } from './interrupts.js';
import type { CommandDefinition } from './commands/define.js';
import { findNoun, loadCommands } from './commands/index.js';

declare const __SITEBUILDER_VERSION__: string;
export const VERSION = typeof __SITEBUILDER_VERSION__ === 'string' ? __SITEBUILDER_VERSION__ : '0.0.0-dev';

export interface MainOverrides {
  io?: IO;
  env?: Record<string, string | undefined>;
  clock?: Clock;
  prompter?: Prompter;
  signal?: AbortSignal;
  /** Ctrl-C presses, for tests (fire()) of commands that take them over. */
  interrupts?: Interrupts;
}

export const EXIT_CODE_HELP = `Exit codes:
  0    done
  1    the service refused or failed (after retries), or the network did
  2    usage: bad flag, bad argument, client-side validation; nothing was sent
  4    authentication or permission: no token, 401, 403
  5    a confirmation or an answer is needed and no prompt is possible; nothing was changed
  6    the agent run failed
  7    rate limit or quota still exceeded after the allowed waiting
  8    still pending: --timeout reached, or detached from a run that goes on
  10   the run ended with an ask_user question waiting for an answer
  11   the run ended with a plan waiting for approval
  130  interrupted by the user`;

const ENVIRONMENT_HELP = `Environment:
  SITEBUILDER_TOKEN       token (wins over the saved profile; --token wins over it)
  SITEBUILDER_BASE_URL    service address (default: the profile's, else the hosted service)
  SITEBUILDER_PROFILE     profile to use
  SITEBUILDER_SITE        default site
  SITEBUILDER_CONFIG_DIR  where the config file lives (0600, in a 0700 directory)
  SITEBUILDER_DEBUG=1     like --debug
  NO_COLOR, CLICOLOR=0, FORCE_COLOR, CLICOLOR_FORCE   colour policy`;

function globalsFrom(cmd: Command, env: Record<string, string | undefined>): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  return {
    json: Boolean(o.json),
    profile: o.profile as string | undefined,
    baseUrl: o.baseUrl as string | undefined,
    token: o.token as string | undefined,
    debug: Boolean(o.debug) || env.SITEBUILDER_DEBUG === '1',
    color: o.color !== false,
    yes: Boolean(o.yes),
    quiet: Boolean(o.quiet),
  };
}

function toCamel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function buildCommand(def: CommandDefinition, runWith: (def: CommandDefinition, cmd: Command, positionals: unknown[]) => Promise<void>): Command {
  const cmd = new Command(def.name);
  cmd.summary(def.summary).description(def.description ?? def.summary);
  cmd.configureHelp({
    showGlobalOptions: true,
    // "Global Options" are the program's own; a parent noun's options are not global.
    visibleGlobalOptions(c: Command) {
      let root = c;
      while (root.parent) root = root.parent;
      return root === c ? [] : root.options.filter((o) => !o.hidden);
    },
  });
  if (def.usage) cmd.usage(def.usage);
  for (const alias of def.aliases ?? []) cmd.alias(alias);
  for (const a of def.args ?? []) {
    const label = `${a.name}${a.variadic ? '...' : ''}`;
    cmd.argument(a.required ? `<${label}>` : `[${label}]`, a.description);
  }
  for (const o of def.options ?? []) {
    const opt = new Option(o.flags, o.description);
    if (o.choices) opt.choices(o.choices as string[]);
    if (o.default !== undefined) opt.default(o.default);
    if (o.parse) opt.argParser(o.parse as (v: string, p: unknown) => unknown);
    if (o.hidden) opt.hideHelp();
    cmd.addOption(opt);
  }
  const after: string[] = [];
  if (def.examples?.length) after.push(`Examples:\n${def.examples.map((e) => `  $ ${e}`).join('\n')}`);
  if (def.jsonFields) after.push(`JSON output (--json):\n  ${def.jsonFields}`);
  if (after.length) cmd.addHelpText('after', `\n${after.join('\n\n')}`);
  for (const sub of def.subcommands ?? []) cmd.addCommand(buildCommand(sub, runWith));
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

type RunCommand = (def: CommandDefinition, cmd: Command, positionals: unknown[]) => Promise<void>;

/** The program over the given nouns (all of them for help and completion; one to run a command). */
export function buildProgram(commands: CommandDefinition<any>[], run: RunCommand = async () => {}): Command {
  const program = new Command('sitebuilder');
  program
    .description('Build, change and publish sites with the AI site agent, from a terminal or a script.')
    .version(VERSION, '-v, --version', 'print the version')
    .option('--json', 'print one JSON document on stdout (NDJSON for followed runs); errors as JSON on stderr')
    .option('-p, --profile <name>', 'use this saved profile')
    .option('--base-url <url>', 'address of the service (or SITEBUILDER_BASE_URL)')
    .option('--token <token>', 'token for this call (discouraged: it lands in shell history; use auth login or SITEBUILDER_TOKEN)')
    .option('--debug', 'log each call (method, status, duration, request id, budget) on stderr; never the token')
    .option('--no-color', 'no colour')
    .option('-y, --yes', 'answer yes to confirmations (for scripts)')
    .option('-q, --quiet', 'print only data and errors')
    .showSuggestionAfterError(true)
    .addHelpText('after', `\n${ENVIRONMENT_HELP}\n\n${EXIT_CODE_HELP}\n`);
  for (const def of commands) program.addCommand(buildCommand(def, run), { hidden: def.hidden });
  return program;
}

/**
 * Every command's help text, keyed by its path ("" for the program, "site list", aliases too).
 * The build writes them to dist/static.json so that bin/ answers --help without loading the CLI.
 */
export async function helpTexts(): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  const visit = (cmd: Command, paths: string[]) => {
    let captured = '';
    cmd.configureOutput({ writeOut: (s) => (captured += s), writeErr: (s) => (captured += s), getOutHelpWidth: () => 80, getErrHelpWidth: () => 80 });
    cmd.outputHelp();
    for (const p of paths) texts[p] = captured;
    for (const sub of cmd.commands) {
      const names = [sub.name(), ...sub.aliases()];
      visit(sub, paths.flatMap((p) => names.map((n) => (p ? `${p} ${n}` : n))));
    }
  };
  visit(buildProgram(await loadCommands()), ['']);
  return texts;
}

/** Global options that take a value: their value is not the noun. */
const VALUE_OPTIONS = new Set(['-p', '--profile', '--base-url', '--token']);

/** The noun the arguments name (the first word that is not an option), if it is one. */
function nounOf(argv: string[]) {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return findNoun(a);
  }
  return undefined;
}

function errorDocument(err: CliError | Error, exitCode: number): Record<string, unknown> {
  const details = err instanceof CliError ? err.details : {};
  return { error: { type: err.name, message: err.message, exitCode, ...details } };
}

export async function main(argv: string[], overrides: MainOverrides = {}): Promise<number> {
  const env = overrides.env ?? (process.env as Record<string, string | undefined>);
  const wantsJson = argv.includes('--json');
  const noColorFlag = argv.includes('--no-color');
  const io = overrides.io ?? systemIO(env, noColorFlag);
  if (!overrides.io) {
    // `sitebuilder site list | head` closes the pipe early: stop quietly, as other tools do.
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(ExitCode.ok);
    });
  }
  if (overrides.io) {
    overrides.io.colorLevel = noColorFlag ? 0 : decideColorLevel({ env, stdoutIsTTY: io.stdoutIsTTY, noColorFlag });
  }
  io.json = wantsJson;
  const controller = new AbortController();
  const signal = overrides.signal ?? controller.signal;
  const interrupts = overrides.interrupts ?? new Interrupts();
  let ctx: Context | undefined;
  let removeSigint = () => {};
  if (!overrides.signal) {
    let presses = 0;
    const onSigint = () => {
      if (interrupts.fire()) return;
      presses++;
      if (presses === 1) controller.abort(new InterruptedError());
      else {
        io.errLine('');
        process.exit(ExitCode.interrupted);
      }
    };
    process.on('SIGINT', onSigint);
    removeSigint = () => process.off('SIGINT', onSigint);
  }

  let exitCode: number = ExitCode.ok;
  // Only the noun that runs is loaded (start-up budget); help and unknown words load them all.
  const noun = nounOf(argv);
  const commands = noun ? [await noun.load()] : await loadCommands();
  const program = buildProgram(commands, async (def, cmd, positionals) => {
    const globals = globalsFrom(cmd, env);
    io.json = globals.json;
    io.quiet = globals.quiet;
    if (!globals.color) io.colorLevel = 0;
    ctx = createContext({
      io,
      env,
      globals,
      config: new ConfigStore(configDir(env)),
      clock: overrides.clock ?? systemClock,
      prompter: overrides.prompter ?? new EnquirerPrompter(io, env),
      signal,
      interrupts,
      version: VERSION,
    });
    // commander lets a parent command parse the options it shares with a subcommand
    // (`storage-restore plan --backup X`), so a subcommand also gets its non-root ancestors' values.
    const options: Record<string, unknown> = {};
    const ancestors: Command[] = [];
    for (let c = cmd.parent; c?.parent; c = c.parent) ancestors.unshift(c);
    for (const c of ancestors) Object.assign(options, c.opts());
    Object.assign(options, cmd.opts());
    (def.args ?? []).forEach((a, i) => {
      options[toCamel(a.name)] = positionals[i];
    });
    const code = await def.run!(options, ctx);
    exitCode = code ?? ExitCode.ok;
  });
  // exitOverride and configureOutput are not inherited by commands added before them, so every
  // command gets them. Help is wrapped at 80 columns, as in the texts bin/ prints without the CLI.
  const configure = (c: Command) => {
    c.exitOverride();
    c.configureOutput({
      getOutHelpWidth: () => 80,
      getErrHelpWidth: () => 80,
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) => !wantsJson && write(s),
    });
    c.commands.forEach(configure);
  };
  configure(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    exitCode = reportError(err, io, wantsJson, env, argv);
  } finally {
    removeSigint();
    ctx?.close();
  }
  return exitCode;
}

function reportError(err: unknown, io: IO, wantsJson: boolean, env: Record<string, string | undefined>, argv: string[]): number {
  const debug = argv.includes('--debug') || env.SITEBUILDER_DEBUG === '1';
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
    // A noun given without a verb: its help went to stderr; that is a usage error.
    if (err.code === 'commander.help') return ExitCode.usage;
    const message = err.message.replace(/^error: /, '');
    if (wantsJson) io.errLine(JSON.stringify({ error: { type: 'UsageError', message, exitCode: ExitCode.usage } }));
    else io.errLine('Run with --help for usage.');
    return ExitCode.usage;
  }
  if (err instanceof DOMException && err.name === 'AbortError') err = new InterruptedError();
  const known = err instanceof CliError || (err instanceof Error && typeof (err as { exitCode?: unknown }).exitCode === 'number');
  const e = err instanceof Error ? err : new Error(String(err));
  const exitCode = known ? (e as CliError).exitCode : ExitCode.failure;
  const message = known ? e.message : `Unexpected error: ${e.message}. Run again with --debug for details.`;
  if (wantsJson) io.errLine(JSON.stringify(errorDocument(Object.assign(e, { message }), exitCode)));
  else io.errLine(`error: ${message}`);
  if (debug && e.stack) io.errLine(e.stack);
  return exitCode;
}
