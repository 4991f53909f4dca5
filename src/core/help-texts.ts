// Every command's help as text, for the build (dist/help/, which bin/ prints without the CLI) and
// the tests: loaded by neither a command nor a help.
import type { Command } from 'commander';
import type { AnyCommandDefinition } from './define.js';
import { HELP_LAYOUT } from './help-layout.js';
import { buildProgram } from './program.js';

/**
 * Every command's help text at `width` columns, keyed by its path ("" for the program, "site
 * list", aliases too). The build writes them at 80 to dist/help/ so that bin/ answers --help
 * without loading the CLI.
 */
export function helpTexts(commands: AnyCommandDefinition[], width = 80): Record<string, string> {
  const texts: Record<string, string> = {};
  const visit = (cmd: Command, paths: string[]) => {
    let captured = '';
    cmd.configureOutput({
      writeOut: (s) => (captured += s),
      writeErr: (s) => (captured += s),
      getOutHelpWidth: () => width,
      getErrHelpWidth: () => width,
    });
    cmd.outputHelp();
    for (const p of paths) texts[p] = captured;
    for (const sub of cmd.commands) {
      const names = [sub.name(), ...sub.aliases()];
      visit(
        sub,
        paths.flatMap((p) => names.map((n) => (p ? `${p} ${n}` : n))),
      );
    }
  };
  visit(buildProgram(commands, undefined, HELP_LAYOUT), ['']);
  return texts;
}
