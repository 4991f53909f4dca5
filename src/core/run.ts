// run(argv, overrides): loads the noun the arguments name, runs them through commander over it
// (program.ts), and maps every error to its exit code in one place. Only this file and bin/ touch
// process.exit.
import { rerunAdvice } from '../api/rerun.js';
import { clockFromEnv } from '../clock.js';
import { ConfigStore, configDir } from '../config/store.js';
import { type Context, type ContextOverrides, createContext, type GlobalOptions, tokenInForce } from '../context.js';
import { CliError, ExitCode, InterruptedError } from '../errors.js';
import { decideColorLevel } from '../io/color-level.js';
import type { IO } from '../io/io.js';
import { systemIO } from '../io/system-io.js';
import { EnquirerPrompter } from '../io/enquirer-prompter.js';
import { exitRestoring, restoreTerminal } from '../io/terminal-restore.js';
import { jsonText, sanitizeInline } from '../io/sanitize.js';
import { Interrupts } from '../interrupts.js';
import { checkCommandInput } from './check-input.js';
import type { AnyCommandDefinition, Cli, CommandDefinition } from './define.js';
import { type GlobalFlags, VERSION } from './global-options.js';
import { findNoun, loadCommands } from './nouns.js';
import { commandWords, runProgram } from './program.js';

function globalsFrom(o: GlobalFlags, env: Record<string, string | undefined>): GlobalOptions {
  return {
    json: Boolean(o.json),
    profile: o.profile,
    baseUrl: o.baseUrl,
    token: o.token,
    debug: Boolean(o.debug) || env.SITEBUILDER_DEBUG === '1',
    color: o.color !== false,
    yes: Boolean(o.yes),
    quiet: Boolean(o.quiet),
  };
}

/**
 * Whether the site is picked from a list before the command runs: an optional `site` argument
 * left out, no default site, and a person at a terminal (otherwise the command's own refusal
 * names the argument, exit 2).
 */
function sitePickWanted(def: AnyCommandDefinition, options: Record<string, unknown>, ctx: Context): boolean {
  const arg = def.args?.find((a) => a.name === 'site');
  if (!arg || arg.required || arg.pick === false || options.site !== undefined) return false;
  // Every site of a workspace (publish, chat: docs/scripting.md "Many sites at once"): none to pick.
  if (options.allSites) return false;
  return !ctx.defaultSite() && ctx.prompter.canPrompt();
}

/** What is missing when commander answers with help instead of running anything (said under --json). */
function missingCommand(words: string[]): string {
  const named = words.filter((w) => w !== 'help');
  if (named.length === 0) return '`sitebuilder` needs a command; `sitebuilder --help` lists them.';
  return `\`sitebuilder ${named[0]}\` needs a command; \`sitebuilder ${named[0]} --help\` lists them.`;
}

function errorDocument(err: CliError | Error, exitCode: number): Record<string, unknown> {
  const details = err instanceof CliError ? err.details : {};
  return { error: { type: err.name, message: err.message, exitCode, ...details } };
}

/** Killed by SIGTERM: 128 + 15, as a shell reports it. */
const EXIT_TERMINATED = 143;
/** Killed by SIGHUP (the terminal closed): 128 + 1. */
const EXIT_HANGUP = 129;
/** How long a command has to end after SIGTERM before the process ends anyway. */
const TERM_GRACE_MS = 1000;

/** What commands that run or describe the CLI get (define.ts: Cli). */
const cli: Cli = { run, commands: loadCommands };

/** Runs a command line; resolves to its exit code. */
export async function run(argv: string[], overrides: ContextOverrides = {}): Promise<number> {
  const env = overrides.env ?? (process.env as Record<string, string | undefined>);
  // The options end at `--`: a value after it (an id pasted from a printed command) is an argument.
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const wantsJson = options.includes('--json');
  const noColorFlag = options.includes('--no-color');
  const io = overrides.io ?? systemIO(env, noColorFlag);
  if (!overrides.io) {
    // `sitebuilder site list | head` closes the pipe early: stop quietly, as other tools do,
    // with the code of what is known by then (0 for a listing; a batch's own: io.onReaderGone).
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(io.onReaderGone());
    });
    // The last net: an error thrown outside any command's await (a library's callback) is one
    // sentence too, its stack only under --debug; the terminal is given back as it was.
    const crashed = (err: unknown) => {
      restoreTerminal(io);
      exitRestoring(io, reportError(err, io, wantsJson, env, argv, [], undefined));
    };
    process.once('uncaughtException', crashed);
    process.once('unhandledRejection', crashed);
  }
  if (overrides.io) {
    overrides.io.colorLevel = noColorFlag ? 0 : decideColorLevel({ env, stdoutIsTTY: io.stdoutIsTTY, noColorFlag });
  }
  io.json = wantsJson;
  const controller = new AbortController();
  const signal = overrides.signal ?? controller.signal;
  const interrupts = overrides.interrupts ?? new Interrupts();
  let ctx: Context | undefined;
  let removeSignals = () => {};
  /** The exit code of the signal that ended the command (SIGTERM, SIGHUP), once one did. */
  let terminated: number | undefined;
  if (!overrides.signal) {
    let presses = 0;
    const onSigint = () => {
      if (interrupts.fire()) return;
      presses++;
      if (presses === 1) controller.abort(new InterruptedError());
      else exitRestoring(io, ExitCode.interrupted);
    };
    // SIGTERM, and SIGHUP (the terminal closed), end the command as a first Ctrl-C does (what it
    // prints on the way out included, the prompt on the screen cancelled), and the process within
    // TERM_GRACE_MS whatever the command is waiting on; a second one at once. Every way out gives
    // the terminal back (io/terminal-restore.ts). A command listening for the signal itself takes
    // it over (the emulator stops and saves its state).
    const stopOn = (name: 'SIGTERM' | 'SIGHUP', code: number, why: string) => {
      const handler = () => {
        if (process.listeners(name).some((l) => l !== handler)) return;
        if (terminated !== undefined) exitRestoring(io, code);
        terminated = code;
        controller.abort(new InterruptedError(why));
        setTimeout(() => exitRestoring(io, code), TERM_GRACE_MS).unref();
      };
      return handler;
    };
    const onSigterm = stopOn('SIGTERM', EXIT_TERMINATED, 'Terminated.');
    const onSighup = stopOn('SIGHUP', EXIT_HANGUP, 'The terminal was closed.');
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    process.on('SIGHUP', onSighup);
    removeSignals = () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
      process.off('SIGHUP', onSighup);
    };
  }

  let exitCode: number = ExitCode.ok;
  let ran: AnyCommandDefinition | undefined;
  const execute = async (
    def: AnyCommandDefinition,
    options: Record<string, unknown>,
    withGlobals: Record<string, unknown>,
    given: ReadonlySet<string>,
  ) => {
    ran = def;
    const globals = globalsFrom(withGlobals as GlobalFlags, env);
    io.json = globals.json;
    io.quiet = globals.quiet;
    if (!globals.color) io.colorLevel = 0;
    io.markdown = withGlobals.markdown !== false && !env.SITEBUILDER_NO_MARKDOWN;
    io.env = env;
    ctx = createContext({
      io,
      env,
      globals,
      config: new ConfigStore(configDir(env)),
      clock: overrides.clock ?? clockFromEnv(env),
      prompter: overrides.prompter ?? new EnquirerPrompter(io, env, signal),
      signal,
      interrupts,
      version: VERSION,
    });
    const context = ctx;
    checkCommandInput(def, { options, globals: withGlobals, given, token: () => tokenInForce(context) });
    if (sitePickWanted(def, options, context)) options.site = await (await import('../pickers.js')).pickSite(context);
    // The options come from the definition itself (program.ts), so they are the ones it declares.
    const code = await (def as CommandDefinition).run!(options, ctx, cli).catch(async (err: unknown) => {
      // A site id the service does not know: "did you mean" from the sites the token reaches.
      throw await (await import('../commands/chat/site-suggest.js')).withSiteSuggestion(context, err);
    });
    exitCode = code ?? ExitCode.ok;
  };

  const { words, rest } = commandWords(argv);
  try {
    // Only the noun that runs is loaded (start-up budget); all of them when none is named, for
    // the program's help and its suggestions ("Did you mean site?").
    const noun = findNoun(words[0] === 'help' ? words[1] : words[0]);
    const commands = noun ? [await noun.load()] : await loadCommands();
    // `help` among the words: help-words.ts says what it asks for (loaded only then).
    const helpArgv = words.includes('help')
      ? (await import('./help-words.js')).helpArgv(words, rest, commands, findNoun)
      : undefined;
    await runProgram(helpArgv ?? argv, commands, execute, io, wantsJson);
  } catch (err) {
    exitCode = reportError(err, io, wantsJson, env, argv, words, ran);
  } finally {
    io.status(undefined);
    removeSignals();
    await ctx?.close();
  }
  return terminated ?? exitCode;
}

/** The code of commander's own errors (thrown through exitOverride), e.g. commander.unknownOption. */
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
  words: string[],
  ran?: AnyCommandDefinition,
): number {
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const debug = options.includes('--debug') || env.SITEBUILDER_DEBUG === '1';
  const code = commanderCode(err);
  if (code) {
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return ExitCode.ok;
    if (code === 'commander.help') {
      // `help`, asked for: 0. A noun given without a verb: its help went to stderr (not under
      // --json, where the error says what is missing); that is a usage error.
      if ((err as { exitCode?: number }).exitCode === 0) return ExitCode.ok;
      if (wantsJson)
        io.errLine(
          jsonText({ error: { type: 'UsageError', message: missingCommand(words), exitCode: ExitCode.usage } }),
        );
      return ExitCode.usage;
    }
    const message = (err as Error).message.replace(/^error: /, '');
    if (wantsJson) io.errLine(jsonText({ error: { type: 'UsageError', message, exitCode: ExitCode.usage } }));
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
  // One line, whatever the service's message held (the IO's writers strip controls; newlines
  // would let a message print lines that look like ours).
  if (wantsJson) io.errLine(jsonText(errorDocument(Object.assign(e, { message }), exitCode)));
  // A person's No or Ctrl-C is no error: said as it is (exit 130 tells scripts).
  else io.errLine(`${exitCode === ExitCode.interrupted ? '' : 'error: '}${sanitizeInline(message)}`);
  if (debug && e.stack) io.errLine(e.stack);
  return exitCode;
}
