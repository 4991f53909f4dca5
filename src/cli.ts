// The entry point the bundle exports (scripts/build.mjs, bin/sitebuilder.js): running a command
// line, and the help texts the build writes to dist/help/. The framework is in core/.
import { loadCommands } from './core/nouns.js';

export { run as main } from './core/run.js';

/** Every command's help text, keyed by its path ("" for the program, "site list", aliases too). */
export async function helpTexts(): Promise<Record<string, string>> {
  // Loaded only here: no command needs it.
  return (await import('./core/help-texts.js')).helpTexts(await loadCommands());
}
