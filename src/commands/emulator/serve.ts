// Runs the emulator until Ctrl-C or SIGTERM (saving --state), or around one command.
import { randomBytes } from 'node:crypto';
import { isLoopbackHost } from '../../api/base-url.js';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import {
  SHAPES_ENV,
  ShapesError,
  shapesFromEnv,
  startEmulator,
  type EmulatorState,
  type RunningEmulator,
  type ShapesName,
} from '../../emulator/index.js';
import {
  checkStatePath,
  lockStateFile,
  readStateFile,
  StateFileError,
  type StateLock,
  StateSaveError,
  saveStateFile,
} from '../../emulator/state-file.js';
import { hostsOf, SECRET_HEADER } from '../../emulator/guard.js';
import { formatLogLine, printBanner, printSetupBanner } from './banner.js';
import { type EmulatorOptions, parseSpeed } from './flags.js';
import { runCommand, SECRET_ENV } from './run-command.js';
import {
  checkNotRunning,
  checkSetupProfile,
  type EmulatorProfile,
  restoreProfile,
  SETUP_PROFILE,
  setUpProfile,
  setupProfileName,
} from './setup.js';

const SPEED_ENV = 'SITEBUILDER_EMULATOR_SPEED';

/** The control API's secret: $SITEBUILDER_EMULATOR_SECRET; else, bound elsewhere than loopback, one drawn now. */
function controlSecretFor(host: string, env: Record<string, string | undefined>): string | undefined {
  const given = env[SECRET_ENV];
  if (given !== undefined && given !== '') {
    if (!/^[\x21-\x7e]{16,256}$/.test(given))
      throw new UsageError(
        `${SECRET_ENV} must be 16 to 256 visible characters (no spaces); set a longer one or unset it.`,
      );
    return given;
  }
  return isLoopbackHost(host) ? undefined : randomBytes(24).toString('base64url');
}

export async function serveEmulator(opts: EmulatorOptions, ctx: Context): Promise<number> {
  const { io } = ctx;
  // Bound elsewhere than loopback, the control API needs a secret (docs/emulator.md "Security"):
  // $SITEBUILDER_EMULATOR_SECRET, else one drawn now and printed with the address.
  const controlSecret = controlSecretFor(opts.host, ctx.env);
  if (!isLoopbackHost(opts.host)) {
    io.errLine(
      `warning: binding to ${opts.host} exposes the emulator and its demo tokens to other machines; its control API needs the secret in the ${SECRET_HEADER} header.`,
    );
  }
  const hasCommand = Boolean(opts.command && opts.command.length > 0);
  if (opts.setup && hasCommand)
    throw new UsageError(
      'Use --setup to keep an emulator running for other terminals, or -- command to run one command against it, not both.',
    );
  // A profile that is not the emulator's, or whose emulator still runs, is refused before anything starts.
  if (opts.setup) {
    const name = setupProfileName(ctx);
    checkSetupProfile(name, savedProfile(ctx, name));
    await checkNotRunning(ctx, name, savedProfile(ctx, name));
  }
  const shapes = opts.shapes ?? shapesOfEnv(ctx.env);
  const speed = opts.speed ?? speedOfEnv(ctx.env);
  // The state file is checked, locked and read before anything starts (state-file.ts).
  const { lock, state } = opts.state ? claimState(opts.state) : {};
  const start = (port: number) => startEmulator({ host: opts.host, port, speed, state, shapes, controlSecret });
  let running: RunningEmulator;
  try {
    // With --setup and no --port, the port its profile last pointed at, where it is free: a
    // chat still trying to reach the emulator that was stopped finds this one.
    const again = opts.setup && opts.port === 0 ? setupPort(ctx) : undefined;
    running =
      again === undefined
        ? await start(opts.port)
        : await start(again).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== 'EADDRINUSE') throw err;
            return start(opts.port);
          });
  } catch (err) {
    lock?.release();
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE')
      throw new UsageError(
        `Port ${opts.port} on ${opts.host} is in use; pick another with --port (0 picks a free one).`,
      );
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
      throw new UsageError(`Cannot bind to ${opts.host}: no such local address.`);
    throw err;
  }
  const emu = running.emulator;
  emu.errorListener = (err, requestId) =>
    io.errLine(`emulator: request ${requestId} failed: ${(err as Error)?.stack ?? String(err)}`);
  if (ctx.globals.debug) emu.log.listener = (e) => io.errLine(formatLogLine(e));

  /** Saves --state and stops; a failed save answers its sentence (where the state still is). */
  const stop = async (): Promise<string | undefined> => {
    try {
      if (opts.state) saveStateFile(opts.state, running.emulator.snapshot());
      return undefined;
    } catch (err) {
      if (err instanceof StateSaveError) return err.message;
      throw err;
    } finally {
      await running.close();
      lock?.release();
    }
  };

  if (opts.command && opts.command.length > 0) {
    let code = ExitCode.failure as number;
    try {
      code = await runCommand(opts.command, running, ctx, speed);
    } finally {
      const failed = await stop();
      if (failed) {
        io.errLine(`error: ${failed}`);
        if (code === 0) code = ExitCode.failure;
      }
    }
    return code;
  }

  // Listening for SIGTERM and SIGHUP before the address is printed: a script that reads the
  // address and stops the emulator at once must not meet Node's default (exit by signal, no --state).
  const stopped = waitForStop(ctx.signal);
  let profile: EmulatorProfile | undefined;
  try {
    if (opts.setup) profile = await setUpProfile(ctx, running.baseUrl, running.token);
  } catch (err) {
    await stop();
    throw err;
  }
  if (profile) printSetupBanner(running, profile, ctx);
  else printBanner(running, ctx);
  if (!isLoopbackHost(opts.host) && !ctx.globals.json) io.info(fromElsewhere(opts.host, running.baseUrl));
  // After a hangup the terminal is gone: nothing more is written to it.
  const hangup = (await stopped) === 'hangup';
  const said = hangup ? () => {} : (line: string) => io.info(line);
  said('Stopping the emulator…');
  const failed = await stop();
  if (failed && !hangup) io.errLine(`error: ${failed}`);
  else if (opts.state) said(`State saved to ${opts.state}.`);
  if (profile) {
    const back = await restoreProfile(ctx, profile);
    if (back) said(`Profile ${back} is the current profile again.`);
  }
  return failed ? ExitCode.failure : ExitCode.ok;
}

/**
 * Bound beyond loopback, the addresses other machines use (the printed base URL is loopback,
 * the one this machine's CLI uses): every address of the bind, the port of the base URL.
 */
function fromElsewhere(host: string, baseUrl: string): string {
  const port = new URL(baseUrl).port;
  const urls = hostsOf(host)
    .filter((h) => !isLoopbackHost(h))
    .map((h) => `http://${h.includes(':') ? `[${h}]` : h}:${port}`);
  return urls.length
    ? `Other machines reach it at ${urls.join(', ')}; on this machine use the address above (sitebuilder sends a token over plain http:// to loopback only).`
    : 'No address of this machine besides loopback was found for other machines to use.';
}

/** SITEBUILDER_EMULATOR_SPEED, the default of --speed (a test of the Quick start sets it). */
function speedOfEnv(env: Record<string, string | undefined>): number {
  const value = env[SPEED_ENV];
  if (value === undefined || value === '') return 1;
  try {
    return parseSpeed(value);
  } catch (err) {
    throw new UsageError(`${(err as Error).message.replace('--speed', SPEED_ENV)} Unset it or fix it.`);
  }
}

/** The saved profile of that name, if there is one. */
function savedProfile(ctx: Context, name: string) {
  const profiles = ctx.config.read().profiles;
  return profiles && Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

/** The loopback port the --setup profile points at, if any. */
function setupPort(ctx: Context): number | undefined {
  const baseUrl = ctx.config.profile(ctx.globals.profile ?? SETUP_PROFILE).baseUrl;
  if (typeof baseUrl !== 'string') return undefined;
  try {
    const url = new URL(baseUrl);
    const port = Number(url.port);
    return isLoopbackHost(url.hostname) && Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

/** SITEBUILDER_EMULATOR_SHAPES, the default of --shapes; a bad value is a usage error. */
function shapesOfEnv(env: Record<string, string | undefined>): ShapesName {
  try {
    return shapesFromEnv(env);
  } catch (err) {
    if (err instanceof ShapesError) throw new UsageError(`${err.message} Unset ${SHAPES_ENV} or fix it.`);
    throw err;
  }
}

/** The --state file checked, locked and read (state-file.ts); a path that cannot be used is a usage error (exit 2). */
function claimState(file: string): { lock: StateLock; state?: EmulatorState } {
  try {
    checkStatePath(file);
    const lock = lockStateFile(file);
    try {
      return { lock, state: readStateFile(file) };
    } catch (err) {
      lock.release();
      throw err;
    }
  } catch (err) {
    if (err instanceof StateFileError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Resolves on the first Ctrl-C (the context's signal) or SIGTERM: 'stop'; or on SIGHUP, the
 * terminal closed: 'hangup'. The state is saved on each.
 */
function waitForStop(signal: AbortSignal): Promise<'stop' | 'hangup'> {
  return new Promise((resolve) => {
    const done = (why: 'stop' | 'hangup') => () => {
      process.off('SIGTERM', onStop);
      process.off('SIGHUP', onHangup);
      signal.removeEventListener('abort', onStop);
      resolve(why);
    };
    const onStop = done('stop');
    const onHangup = done('hangup');
    if (signal.aborted) return resolve('stop');
    signal.addEventListener('abort', onStop, { once: true });
    // A server is stopped with SIGTERM too; core/run.ts only turns Ctrl-C into the signal.
    process.once('SIGTERM', onStop);
    process.once('SIGHUP', onHangup);
  });
}
