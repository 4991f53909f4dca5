// `sitebuilder emulator -- command args…`: the command runs against the emulator, with its
// address and full-scope demo token in the environment (docs/emulator.md).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { isatty } from 'node:tty';
import type { Context } from '../../context.js';
import { type RunningEmulator, SHAPES_ENV } from '../../emulator/index.js';
import { UsageError } from '../../errors.js';

/** The control API's secret, given to the emulator and passed on to the command. */
export const SECRET_ENV = 'SITEBUILDER_EMULATOR_SECRET';

/**
 * Runs the command against the emulator; its exit code becomes ours. Every signal that stops
 * the emulator reaches the command first: SIGTERM and SIGHUP are passed on; SIGINT too when it
 * cannot have come from a terminal the command shares (a Ctrl-C there reaches both already).
 */
export function runCommand(command: string[], running: RunningEmulator, ctx: Context, speed: number): Promise<number> {
  const env = {
    // The CLI's own waits (the poll floor, backoff) run as fast as the emulator's clock.
    ...(speed > 1 && { SITEBUILDER_CLOCK_SPEED: String(Math.min(speed, 1000)) }),
    ...ctx.env,
    SITEBUILDER_BASE_URL: running.baseUrl,
    SITEBUILDER_TOKEN: running.token,
    // The command may start emulators of its own (a test suite): they take the same shapes.
    [SHAPES_ENV]: running.shapes,
    ...(running.controlSecret !== undefined && { [SECRET_ENV]: running.controlSecret }),
  } as NodeJS.ProcessEnv;
  const shimDir = sitebuilderShim();
  if (shimDir) env.PATH = `${shimDir}${delimiter}${env.PATH ?? ''}`;
  ctx.io.info(`Emulator on ${running.baseUrl}; running: ${command.join(' ')}`);
  const cleanup = () => shimDir && rmSync(shimDir, { recursive: true, force: true });
  return new Promise<number>((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    const fromElsewhere = (signal: NodeJS.Signals) => {
      if (!isatty(0)) child.kill(signal);
    };
    process.on('SIGTERM', forward);
    process.on('SIGHUP', forward);
    process.on('SIGINT', fromElsewhere);
    const unforward = () => {
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      process.off('SIGINT', fromElsewhere);
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      unforward();
      if (err.code === 'ENOENT') reject(new UsageError(`Command not found: ${command[0]}.`));
      else if (err.code === 'EACCES')
        reject(new UsageError(`Cannot run ${command[0]}: permission denied (is it executable?).`));
      else reject(err);
    });
    child.on('exit', (code, sig) => {
      unforward();
      const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
      resolve(code ?? 128 + (sig ? (signals[sig] ?? 1) : 1));
    });
  }).finally(cleanup);
}

/**
 * A `sitebuilder` on the command's PATH that runs this very CLI, so a script run with
 * `node bin/sitebuilder.js emulator -- ./deploy.sh` from a clone (not installed) finds it too.
 */
function sitebuilderShim(): string | undefined {
  let bin: string;
  try {
    bin = realpathSync(process.argv[1] ?? '');
  } catch {
    return undefined;
  }
  if (!/^sitebuilder(\.js)?$/.test(basename(bin))) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'sitebuilder-path-'));
  const shim = join(dir, 'sitebuilder');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec '${process.execPath.replace(/'/g, `'\\''`)}' '${bin.replace(/'/g, `'\\''`)}' "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return dir;
}
