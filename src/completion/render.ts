// One entry point for the three shells. The scripts are generated from the command tree by
// `npm run completions` into completions/ (shipped with the package; a test fails when they
// are out of date), and `sitebuilder completion <shell>` prints the shipped file: generating
// needs the whole method registry, which start-up does not load.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { AnyCommandDefinition } from '../core/define.js';
import { buildProgram } from '../core/program.js';
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import { completionTree } from './tree.js';
import { renderZsh } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each script is committed under completions/. */
export const COMPLETION_FILES: Record<Shell, string> = {
  bash: 'sitebuilder.bash',
  zsh: '_sitebuilder',
  fish: 'sitebuilder.fish',
};

export async function renderCompletion(
  shell: Shell,
  program: Command,
  commands: AnyCommandDefinition[],
): Promise<string> {
  const tree = await completionTree(program, commands);
  return shell === 'bash' ? renderBash(tree) : shell === 'zsh' ? renderZsh(tree) : renderFish(tree);
}

/** The script for a command tree (every noun: the `cli` that run() gets gives them). */
export function generateCompletion(shell: Shell, commands: AnyCommandDefinition[]): Promise<string> {
  return renderCompletion(shell, buildProgram(commands), commands);
}

/** The shipped script: completions/ beside dist/ (or beside src/ in a checkout); undefined when missing. */
export async function shippedCompletion(shell: Shell, from: string = import.meta.url): Promise<string | undefined> {
  for (const up of ['../', '../../']) {
    try {
      return await readFile(new URL(`${up}completions/${COMPLETION_FILES[shell]}`, from), 'utf8');
    } catch {
      // not at this level
    }
  }
  return undefined;
}
