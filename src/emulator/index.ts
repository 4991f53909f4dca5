// The emulator's programmatic API: startEmulator() runs a real server (port 0 by default) so
// CLI tests run in-process against it, and the `emulator` and `demo` commands use it too.
import { ALL_SCOPES, type Scope } from '../api/registry-terms.js';
import { EmulatorClock, type TimeSource } from './clock.js';
import { Control } from './control-api.js';
import { Emulator } from './emulator.js';
import { setOrigin } from './origin.js';
import { hostsOf } from './guard.js';
import { closeServer, createEmulatorServer, listen } from './server.js';
import { shapesFromEnv, type ShapesName } from './shapes/index.js';
import type { EmulatorState, TokenRecord } from './state.js';
import { readStateFile, saveStateFile } from './state-file.js';

export { EmulatorClock, type TimeSource } from './clock.js';
export { Control, ControlError } from './control-api.js';
export { Emulator, SERVICE_VERSION } from './emulator.js';
export { EmulatorRefusal } from './refusal.js';
export { DEMO_TOKENS, DEMO_USER_ID, SEED_WORKSPACES, TEAMMATE_USER_ID } from './seed.js';
export type { EmulatorState } from './state.js';
export {
  idPattern,
  parseShapesName,
  SHAPES_ENV,
  SHAPES_NAMES,
  ShapesError,
  shapesFromEnv,
  type ShapesName,
} from './shapes/index.js';
export type { CallContext, EmulatorHost, Handler, HandlerResult, JobService } from './host.js';
export type { Domain } from './types.js';

export interface StartEmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Time source (default the wall clock); FakeClock from src/clock.ts works, shared with a client. */
  clock?: TimeSource;
  /** Emulated time runs this many times faster than the source (default 1). */
  speed?: number;
  /** Seed the demo data (default true). */
  seed?: boolean;
  /** Start from this state (wins over stateFile and seed). */
  state?: EmulatorState;
  /** Load from this file when it exists (a missing file starts fresh); read as state-file.ts reads it. */
  stateFile?: string;
  /** Body size limit in bytes (default the service's 150 MB). */
  bodyLimit?: number;
  /**
   * How answers are shaped where the service's reference says "not shown" (docs/emulator.md
   * "Shapes"): the emulator's own choices, or other plausible ones. Default: the
   * SITEBUILDER_EMULATOR_SHAPES environment variable, else `default`.
   */
  shapes?: ShapesName;
  /**
   * The secret every control request must carry in X-Emulator-Secret (docs/emulator.md
   * "Security"); `emulator --host` on a non-loopback address always sets one.
   */
  controlSecret?: string;
}

export interface DemoToken {
  name: string;
  token: string;
  scopes: Scope[];
  /** Ids of the workspaces the token reaches. */
  workspaces: string[];
}

export interface RunningEmulator {
  /** http://127.0.0.1:PORT — the methods live under `${baseUrl}/v1/`. */
  baseUrl: string;
  /** Tokens to try, full-scope first. */
  tokens: DemoToken[];
  /** The first full-scope token. */
  token: string;
  control: Control;
  emulator: Emulator;
  /** The shapes its answers take (docs/emulator.md "Shapes"). */
  shapes: ShapesName;
  /** The secret the control API needs in X-Emulator-Secret, when it was given one. */
  controlSecret?: string;
  readonly state: EmulatorState;
  saveState(file: string): Promise<void>;
  close(): Promise<void>;
}

/** Tokens in the order they are shown: the first usable full-scope one, the other usable ones, unusable ones last. */
export function listTokens(emu: Emulator): DemoToken[] {
  const now = emu.clock.now();
  const usable = (t: TokenRecord) => !t.revoked && (t.expiresAt === null || t.expiresAt > now);
  const tokens = emu.state.core.tokens;
  const full = tokens.find((t) => usable(t) && t.workspaces === null && ALL_SCOPES.every((s) => t.scopes.includes(s)));
  const ordered = [
    ...(full ? [full] : []),
    ...tokens.filter((t) => t !== full && usable(t)),
    ...tokens.filter((t) => !usable(t)),
  ];
  return ordered.map((t) => ({
    name: t.name,
    token: t.token,
    scopes: [...t.scopes],
    workspaces: emu.reachableWorkspaces(t).map((w) => w._id),
  }));
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const loaded = options.state ?? (options.stateFile ? readStateFile(options.stateFile) : undefined);
  const clock = new EmulatorClock(options.clock ?? Date, options.speed ?? 1, loaded?.savedAt);
  const shapes = options.shapes ?? shapesFromEnv(process.env);
  const emu = new Emulator({ clock, seed: options.seed, state: loaded, shapes });
  const host = options.host ?? '127.0.0.1';
  const server = createEmulatorServer(emu, {
    bodyLimit: options.bodyLimit,
    guard: { hosts: hostsOf(host), controlSecret: options.controlSecret },
  });
  const baseUrl = await listen(server, host, options.port ?? 0);
  setOrigin(emu, baseUrl);
  const tokens = listTokens(emu);
  let closed = false;
  return {
    baseUrl,
    tokens,
    token: tokens[0]?.token ?? '',
    control: new Control(emu),
    emulator: emu,
    shapes,
    controlSecret: options.controlSecret,
    get state() {
      return emu.state;
    },
    saveState: async (file) => saveStateFile(file, emu.snapshot()),
    async close() {
      if (closed) return;
      closed = true;
      clock.stop();
      await closeServer(server);
    },
  };
}
