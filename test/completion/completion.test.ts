// Shell completion: the scripts committed under completions/ match the command tree (regenerate
// with `npm run completions`), and real bash (with and without bash-completion), zsh and fish
// offer the right words with them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../src/api/methods.js';
import { buildProgram } from '../../src/core/program.js';
import { loadCommands } from '../../src/core/nouns.js';
import type { AnyCommandDefinition } from '../../src/core/define.js';
import { COMPLETION_FILES, SHELLS, renderCompletion } from '../../src/completion/render.js';
import { completionTree, expectedCompletions, type CompletionTree } from '../../src/completion/tree.js';
import { BASH_COMPLETION, COMPLETIONS, bashComplete, fishComplete, hasShell, zshComplete } from '../helpers/shells.js';
import { run } from '../helpers/run.js';

let tree: CompletionTree;
let COMMANDS: AnyCommandDefinition[];
beforeAll(async () => {
  COMMANDS = await loadCommands();
  tree = await completionTree(buildProgram(COMMANDS), COMMANDS);
});

describe('completions/', () => {
  for (const shell of SHELLS) {
    it(`holds the ${shell} script of the current command tree`, async () => {
      const file = join(COMPLETIONS, COMPLETION_FILES[shell]);
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : '(missing)';
      const fresh = await renderCompletion(shell, buildProgram(COMMANDS), COMMANDS);
      expect(
        committed === fresh,
        `completions/${COMPLETION_FILES[shell]} is out of date: run \`npm run completions\``,
      ).toBe(true);
    });
  }

  it('`completion <shell>` prints the shipped script; --generate renders the tree', async () => {
    const shipped = await run(['completion', 'bash']);
    expect(shipped.code).toBe(0);
    expect(shipped.stdout).toBe(readFileSync(join(COMPLETIONS, 'sitebuilder.bash'), 'utf8'));
    const generated = await run(['completion', 'zsh', '--generate']);
    expect(generated.stdout).toMatch(/^#compdef sitebuilder\n/);
    const bad = await run(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bash, zsh, fish');
  });
});

describe('the completion tree', () => {
  it('offers every method of the registry after `api`', () => {
    expect(expectedCompletions(tree, ['api'], '')).toEqual([...METHOD_NAMES].sort());
    expect(expectedCompletions(tree, ['api'], 'list_')).toEqual(
      METHOD_NAMES.filter((n) => n.startsWith('list_')).sort(),
    );
  });

  it('knows commands, aliases, flags and enumerated values', () => {
    expect(expectedCompletions(tree, [], 'emai')).toEqual(['email']);
    expect(expectedCompletions(tree, ['email'], '')).toEqual(expect.arrayContaining(['domains', 'restart', 'help']));
    expect(expectedCompletions(tree, ['api', 'list_sites'], '--pa')).toEqual(['--paginate', '--pattern']);
    const api = tree.root.children.find((c) => c.name === 'api')!.node;
    expect(api.flags.find((f) => f.names.includes('--pattern'))?.choices).toEqual([
      'offset',
      'offsetHasMore',
      'nextCursor',
      'token',
      'page',
      'backwards',
    ]);
    expect(api.flags.find((f) => f.names.includes('--input'))?.files).toBe(true);
    expect(tree.globalFlags.flatMap((f) => f.names)).toEqual(
      expect.arrayContaining(['--json', '--profile', '-y', '--yes']),
    );
  });
});

const LINES = [
  'sitebuilder st',
  'sitebuilder api list_',
  'sitebuilder --json api list_sites --pattern ',
  'sitebuilder api list_sites -F offset=1 --pa',
  'sitebuilder completion ',
];
const expected = () => [
  expectedCompletions(tree, [], 'st'),
  METHOD_NAMES.filter((n) => n.startsWith('list_')).sort(),
  ['backwards', 'nextCursor', 'offset', 'offsetHasMore', 'page', 'token'],
  ['--paginate', '--pattern'],
  ['bash', 'fish', 'zsh'],
];

describe('in real shells', () => {
  it('sees the commands starting with st', () => {
    expect(expectedCompletions(tree, [], 'st').length).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(BASH_COMPLETION))('bash with bash-completion', () => {
    const got = bashComplete([...LINES, 'sitebuilder api list_sites --pattern=of']);
    expect(got).toEqual([...expected(), ['offset', 'offsetHasMore']]);
  });

  it('bash without bash-completion', () => {
    const got = bashComplete([...LINES, 'sitebuilder api list_sites --pattern=of'], false);
    expect(got).toEqual([...expected(), ['offset', 'offsetHasMore']]);
  });

  it.skipIf(!hasShell('zsh'))('zsh (compinit, autoloaded from $fpath)', () => {
    expect(zshComplete(LINES)).toEqual(expected());
  });

  it.skipIf(!hasShell('fish'))('fish', () => {
    expect(fishComplete([...LINES, 'sitebuilder api list_sites --pattern=of'])).toEqual([
      ...expected(),
      ['--pattern=offset', '--pattern=offsetHasMore'],
    ]);
  });
});
