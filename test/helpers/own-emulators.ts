// Emulators a test file starts for itself, one a test where its tests run side by side (a fault,
// a clock or a log of one test never reaches another), all closed once the file (or the
// describe that called it) is done. Each starts in a few milliseconds on port 0.
import { afterAll } from 'vitest';
import { type RunningEmulator, type StartEmulatorOptions, startEmulator } from '../../src/emulator/index.js';

/** Call at the top of a file or describe; the function it returns starts one more emulator. */
export function ownEmulators(
  defaults: StartEmulatorOptions = {},
): (options?: StartEmulatorOptions) => Promise<RunningEmulator> {
  const started: RunningEmulator[] = [];
  afterAll(() => Promise.all(started.map((e) => e.close())));
  return async (options = {}) => {
    const emu = await startEmulator({ port: 0, ...defaults, ...options });
    started.push(emu);
    return emu;
  };
}
