// Every command's --help fits a real terminal (tmux) at 80 and 40 columns, and the longest ones at
// 60: the built binary, which prints the texts of dist/help/ at 80 columns and up, and has the CLI
// lay them out at a narrower terminal's width (at 60 columns, a width of the terminal's own; every
// command's layout at 60 is test/core/help-layout.test.ts's, in-process). No line is folded by
// the terminal but an example (`$ …`) or a word alone, which are never broken (they show whole, as
// copied); no word is broken: the words of each help, in order, are those of its 80-column text;
// every example shows whole on its line.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFits, helpExamples, helpWords } from '../helpers/screen.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const HELP_DIR = resolve(import.meta.dirname, '../../dist/help');
const WIDTHS = [80, 60, 40];
/**
 * The helps shown at 60 columns: the program's (its tables), publish's (flags beside their terms
 * at 60, under them at 40), and the two with the most examples continued at 60 (api, chat).
 */
const AT_60 = ['', 'api', 'chat', 'publish'];

/** Each help text the build wrote, once (an alias prints its command's), by its command line: "site list", "" for the program. */
const helps = new Map<string, string>();
for (const file of readdirSync(HELP_DIR).sort()) {
  const text = readFileSync(join(HELP_DIR, file), 'utf8');
  const command =
    file === '_root.txt'
      ? ''
      : file
          .replace(/\.txt$/, '')
          .split('.')
          .join(' ');
  if (![...helps.values()].includes(text)) helps.set(command, text);
}

/** The command lines whose help is shown at a width. */
const shownAt = (cols: number) => [...helps.keys()].filter((c) => cols !== 60 || AT_60.includes(c));

const sessions = new Map<number, { session: TmuxSession; done: string }>();

// One terminal a width, all running at once, each running its commands' --help in a loop.
beforeAll(() => {
  if (!hasTmux) return;
  const dir = mkdtempSync(join(tmpdir(), 'sb-help-tty-'));
  for (const cols of WIDTHS) {
    const done = join(dir, `done-${cols}`);
    const commands = shownAt(cols)
      .map((c) => `'${c}'`)
      .join(' ');
    const script = `for c in ${commands}; do echo "== [$c]"; '${process.execPath}' '${BIN}' $c --help; echo "code $?"; done; echo '== end'; : > '${done}'`;
    const session = new TmuxSession(
      ['sh', '-c', script],
      { TERM: 'xterm-256color', SITEBUILDER_CONFIG_DIR: join(dir, 'config') },
      { cols, rows: 50, history: 20_000 },
    );
    sessions.set(cols, { session, done });
  }
});
afterAll(() => {
  for (const { session } of sessions.values()) session.kill();
});

/** The screen of each command's help, by its command line, once the loop has ended. */
async function screens(cols: number): Promise<Map<string, string>> {
  const { session, done } = sessions.get(cols) as { session: TmuxSession; done: string };
  // The loop ends with a file (cheap to wait for), then its last line shows.
  await waitFor(() => existsSync(done), {
    what: `every --help at ${cols} columns`,
    deadlineMs: 90_000,
    intervalMs: 100,
  });
  const all = await session.waitFor(/^== end$/m);
  const parts = all.split(/^== /m).slice(1, -1);
  return new Map(parts.map((p) => [p.slice(1, p.indexOf(']\n')), p.slice(p.indexOf(']\n') + 2)]));
}

describe.skipIf(!hasTmux)('--help in a terminal', () => {
  for (const cols of WIDTHS) {
    const which = cols === 60 ? 'the longest helps' : 'every command';
    it(`fits ${cols} columns for ${which}, words and examples whole`, { timeout: 120_000 }, async () => {
      const shown = await screens(cols);
      expect([...shown.keys()]).toEqual(cols === 60 ? AT_60 : [...helps.keys()]);
      for (const command of shownAt(cols)) {
        const text = helps.get(command) as string;
        const screen = shown.get(command) ?? '';
        const what = `sitebuilder ${command} --help at ${cols} columns`;
        expect(screen, what).toMatch(/\ncode 0\n$/);
        const help = screen.replace(/code 0\n$/, '');
        expectFits(help, cols);
        expect(helpWords(help), what).toEqual(helpWords(text));
        expect(helpExamples(help), what).toEqual(helpExamples(text));
      }
      // A two-column layout where the terms leave room, else descriptions under their terms.
      expect(shown.get('publish')).toMatch(
        cols >= 60 ? /^ {2}--fail-fast +with several sites: start no/m : /^ {2}--fail-fast\n {6}with several sites/m,
      );
    });
  }
});
