// main(argv, overrides): loads the noun the arguments name, reads them (argv.ts; commander in
// program.ts for help and usage errors), runs the command, and maps every error to its exit code
// in one place. Only this file and bin/ touch process.exit.
import { flagOf, parseArgv, type Flag } from './argv.js';
import { systemClock, type Clock } from './clock.js';
import { ConfigStore, configDir } from './config/store.js';
import { createContext, type Context, type GlobalOptions } from './context.js';
import { CliError, ExitCode, InterruptedError } from './errors.js';
import { decideColorLevel, type IO, systemIO } from './io/io.js';
import { EnquirerPrompter, type Prompter } from './io/prompter.js';
import { Interrupts } from './interrupts.js';
import type { CommandDefinition } from './commands/define.js';
import { findNoun, loadCommands } from './commands/index.js';
import { GLOBAL_OPTIONS, VERSION, VERSION_FLAGS } from './global-options.js';
import { rerunAdvice } from './api/rerun.js';

export { EXIT_CODE_HELP, VERSION } from './global-options.js';

export interface MainOverrides {
  io?: IO;
  env?: Record<string, string | undefined>;
  clock?: Clock;
  prompter?: Prompter;
  signal?: AbortSignal;
  /** Ctrl-C presses, for tests (fire()) of commands that take them over. */
  interrupts?: Interrupts;
}

function globalsFrom(o: Record<string, unknown>, env: Record<string, string | undefined>): GlobalOptions {
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

/**
 * Every command's help text, keyed by its path ("" for the program, "site list", aliases too).
 * The build writes them to dist/help/ so that bin/ answers --help without loading the CLI.
 */
export async function helpTexts(): Promise<Record<string, string>> {
  return (await import('./program.js')).helpTexts();
}

const GLOBAL_FLAG_LIST = [...GLOBAL_OPTIONS, { flags: VERSION_FLAGS, description: '' }].map(flagOf);
const namesOf = (flags: Flag[]) => flags.flatMap((f) => [f.short, f.long].filter((n): n is string => n !== undefined));
/** Global options that take a value: their value is not the noun. */
const VALUE_OPTIONS = new Set(namesOf(GLOBAL_FLAG_LIST.filter((f) => f.takesValue)));
/** The single letters among them: `-qp NAME` is `-q -p NAME`. */
const VALUE_SHORTS = new Set(GLOBAL_FLAG_LIST.filter((f) => f.takesValue && f.short).map((f) => f.short![1]));
/** Every global flag as typed, `--no-color` and `-v` included. */
const GLOBAL_FLAGS = new Set(namesOf(GLOBAL_FLAG_LIST));

/**
 * Where the arguments that are not options (nor values of global options) are, up to `--`, and
 * whether everything before the first of them is a global option.
 */
function commandWordIndexes(argv: string[]): { at: number[]; globalsFirst: boolean } {
  const at: number[] = [];
  let globalsFirst = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a.startsWith('-')) {
      const group = /^-[a-zA-Z]{2,}$/.test(a); // -qp
      if (at.length === 0 && !group && !GLOBAL_FLAGS.has(a.replace(/=.*/, ''))) globalsFirst = false;
      if (VALUE_OPTIONS.has(a) || (group && VALUE_SHORTS.has(a[a.length - 1]))) i++;
      continue;
    }
    at.push(i);
  }
  return { at, globalsFirst };
}

function commandWords(argv: string[]): string[] {
  return commandWordIndexes(argv).at.map((i) => argv[i]);
}

/**
 * `help site list` and `site help list` are `site list --help`: commander's help command takes
 * one word only, and a noun with arguments of its own (`publish help`) would take "help" as one.
 * Only after nothing but global options, and only for a noun that exists.
 */
function helpAsFlag(argv: string[]): string[] {
  const { at, globalsFirst } = commandWordIndexes(argv);
  if (!globalsFirst || at.length < 2) return argv;
  const [first, second] = at;
  const helpAt =
    argv[first] === 'help' && findNoun(argv[second])
      ? first
      : findNoun(argv[first]) && argv[second] === 'help'
        ? second
        : undefined;
  return helpAt === undefined ? argv : [...argv.slice(0, helpAt), ...argv.slice(helpAt + 1), '--help'];
}

/** The noun the arguments name (the first word that is not an option), if it is one. */
function nounOf(argv: string[]) {
  const [first] = commandWords(argv);
  return first === undefined ? undefined : findNoun(first);
}

/** What is missing when commander answers with help instead of running anything (said under --json). */
function missingCommand(argv: string[]): string {
  const words = commandWords(argv).filter((w) => w !== 'help');
  if (words.length === 0) return '`sitebuilder` needs a command; `sitebuilder --help` lists them.';
  if (!findNoun(words[0])) return `There is no command ${JSON.stringify(words[0])}; \`sitebuilder --help\` lists them.`;
  return `\`sitebuilder ${words[0]}\` needs a command; \`sitebuilder ${words[0]} --help\` lists them.`;
}

function errorDocument(err: CliError | Error, exitCode: number): Record<string, unknown> {
  const details = err instanceof CliError ? err.details : {};
  return { error: { type: err.name, message: err.message, exitCode, ...details } };
}

export async function main(args: string[], overrides: MainOverrides = {}): Promise<number> {
  const argv = helpAsFlag(args);
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
  let ran: CommandDefinition | undefined;
  const execute = async (
    def: CommandDefinition,
    options: Record<string, unknown>,
    withGlobals: Record<string, unknown>,
  ) => {
    ran = def;
    const globals = globalsFrom(withGlobals, env);
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
    const code = await def.run!(options, ctx);
    exitCode = code ?? ExitCode.ok;
  };

  try {
    // Only the noun that runs is loaded (start-up budget). The quick reader runs it without
    // commander; help, --version, unknown words and usage errors go to commander.
    const noun = nounOf(argv);
    const def = noun && (await noun.load());
    const parsed = def && parseArgv(argv, GLOBAL_OPTIONS, def);
    if (parsed) await execute(parsed.path[parsed.path.length - 1], parsed.options, parsed.withGlobals);
    else {
      const { runProgram } = await import('./program.js');
      await runProgram(argv, def ? [def] : await loadCommands(), execute, io, wantsJson);
    }
  } catch (err) {
    exitCode = reportError(err, io, wantsJson, env, argv, ran);
  } finally {
    removeSigint();
    ctx?.close();
  }
  return exitCode;
}

/** commander's own errors (thrown through exitOverride), known without loading commander. */
function commanderCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('commander.') ? code : undefined;
}

function reportError(
  err: unknown,
  io: IO,
  wantsJson: boolean,
  env: Record<string, string | undefined>,
  argv: string[],
  ran?: CommandDefinition,
): number {
  const debug = argv.includes('--debug') || env.SITEBUILDER_DEBUG === '1';
  const code = commanderCode(err);
  if (code) {
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return ExitCode.ok;
    if (code === 'commander.help') {
      // `help`, asked for: 0. A noun given without a verb: its help went to stderr (not under
      // --json, where the error says what is missing); that is a usage error.
      if ((err as { exitCode?: number }).exitCode === 0) return ExitCode.ok;
      if (wantsJson)
        io.errLine(
          JSON.stringify({ error: { type: 'UsageError', message: missingCommand(argv), exitCode: ExitCode.usage } }),
        );
      return ExitCode.usage;
    }
    const message = (err as Error).message.replace(/^error: /, '');
    if (wantsJson) io.errLine(JSON.stringify({ error: { type: 'UsageError', message, exitCode: ExitCode.usage } }));
    else io.errLine('Run with --help for usage.');
    return ExitCode.usage;
  }
  if (err instanceof DOMException && err.name === 'AbortError') err = new InterruptedError();
  const known =
    err instanceof CliError || (err instanceof Error && typeof (err as { exitCode?: unknown }).exitCode === 'number');
  const e = err instanceof Error ? err : new Error(String(err));
  const exitCode = known ? (e as CliError).exitCode : ExitCode.failure;
  let message = known ? e.message : `Unexpected error: ${e.message}. Run again with --debug for details.`;
  // A write that may still take effect: the exact command that re-runs it with the same key.
  const flags = ran?.options?.map((o) => o.flags) ?? [];
  const rerun = rerunAdvice(e, argv, {
    idempotencyKey: flags.some((f) => f.includes('--idempotency-key')),
    header: flags.some((f) => f.includes('--header')),
  });
  if (rerun) message = `${message} ${rerun}`;
  if (wantsJson) io.errLine(JSON.stringify(errorDocument(Object.assign(e, { message }), exitCode)));
  else io.errLine(`error: ${message}`);
  if (debug && e.stack) io.errLine(e.stack);
  return exitCode;
}
