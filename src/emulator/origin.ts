// Where the emulator is reached from outside (http://127.0.0.1:PORT), known once the server
// listens. Answers that carry an address (a published site, an uploaded file) are built on it.
import type { EmulatorHost } from './host.js';

const origins = new WeakMap<EmulatorHost, string>();

export function setOrigin(emu: EmulatorHost, baseUrl: string): void {
  origins.set(emu, baseUrl.replace(/\/+$/, ''));
}

/** The base URL the server listens on; http://127.0.0.1 for an emulator driven without one. */
export function originOf(emu: EmulatorHost): string {
  return origins.get(emu) ?? 'http://127.0.0.1';
}
