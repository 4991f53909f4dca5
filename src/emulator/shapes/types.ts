// What a set of shapes does (src/emulator/shapes/index.ts picks one): the three points of the
// pipeline it sits at (arguments in, data and refusals out, the envelope), ids, and seeding.
import type { EmulatorHost } from '../host.js';

/** `default`, `alternate`, or `random:SEED` (a whole number: docs/emulator.md "Random shapes"). */
export type ShapesName = 'default' | 'alternate' | `random:${number}`;

type Rec = Record<string, unknown>;

export interface Shapes {
  readonly name: ShapesName;
  /** The id of the n-th record of a kind (newId). */
  formatId(prefix: string, n: number): string;
  /** An X-Request-Id, or undefined for the emulator's own form. */
  requestId(): string | undefined;
  /** Arguments as sent → as the domains take them (numeric cursors back to theirs); may refuse with 400. */
  incoming(method: string, args: Rec): Rec;
  /** A handler's data (or a GET address's, keyed `GET /v1/…`) → what goes on the wire. */
  outgoing(method: string, data: unknown): unknown;
  /** A refusal's data → what goes on the wire. */
  refusal(method: string, data: unknown): unknown;
  /** Adds to an envelope about to be kept or written (a copy; an envelope that has them already is left alone). */
  envelope<E extends Rec>(body: E, requestId: string, at: string): E;
  /** After the core demo data is seeded, before the domains seed theirs. */
  seedCore(emu: EmulatorHost): void;
  /** The choices these shapes made, beside their name in `GET /_emulator/shapes` (random seeds). */
  describe?(): Record<string, unknown>;
}
