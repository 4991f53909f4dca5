// Hooks for domains that follow the agent's runs without reaching into the chat engine: a
// listener registered here is told when a run has ended (succeeded, failed or cancelled) and
// its file writes were applied. The code backups take one after each run that changed files.
import type { JobRecord, SiteChat } from './slice.js';
import type { EmulatorHost } from '../../host.js';

export type RunEndListener = (emu: EmulatorHost, job: JobRecord, chat: SiteChat) => void;

const listeners = new WeakMap<EmulatorHost, Map<string, RunEndListener>>();

/** Registers (or replaces, by name: attach() runs again after a reset) a listener. */
export function onRunEnd(emu: EmulatorHost, name: string, listener: RunEndListener): void {
  let map = listeners.get(emu);
  if (!map) listeners.set(emu, (map = new Map()));
  map.set(name, listener);
}

/** Called by the run engine once a run's end was applied. */
export function runEnded(emu: EmulatorHost, job: JobRecord, chat: SiteChat): void {
  for (const l of listeners.get(emu)?.values() ?? []) l(emu, job, chat);
}
