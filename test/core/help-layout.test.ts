// The layout of --help at a width (src/core/help-layout.ts): items beside or under their terms,
// the usage and the program's tables wrapped at word boundaries, commands to copy whole; and
// every command's help at 80, 60 and 40 columns, in-process (test/e2e/help-tty.test.ts shows
// them in a real terminal: every one at 80 and 40, the longest at 60).
import { describe, expect, it } from 'vitest';
import { formatExample, formatHelpItem, formatHelpTable, formatUsage, shellSpans } from '../../src/core/help-layout.js';
import { helpTexts } from '../../src/core/help-texts.js';
import { loadCommands } from '../../src/core/nouns.js';
import { displayWidth } from '../../src/io/width.js';
import { run } from '../helpers/run.js';
import { helpExamples, helpWords } from '../helpers/screen.js';

describe('a help item', () => {
  const description = 'site id (default: `site use` or SITEBUILDER_SITE); `-` reads site ids from standard input';

  it('wraps its description beside the terms, continuations under its start', () => {
    expect(formatHelpItem('site', 26, description, 60).split('\n')).toEqual([
      '  site                        site id (default: `site use`',
      '                              or SITEBUILDER_SITE); `-`',
      '                              reads site ids from standard',
      '                              input',
    ]);
  });

  it('puts its description under the term when the column beside the terms is too narrow', () => {
    expect(formatHelpItem('site', 26, description, 40).split('\n')).toEqual([
      '  site',
      '      site id (default: `site use` or',
      '      SITEBUILDER_SITE); `-` reads site',
      '      ids from standard input',
    ]);
    // 30 columns beside the terms is enough, 29 is not.
    expect(formatHelpItem('--wait', 26, 'wait until live', 60)).toBe(`  --wait${' '.repeat(22)}wait until live`);
    expect(formatHelpItem('--wait', 26, 'wait until live', 59)).toBe('  --wait\n      wait until live');
  });

  it('keeps a command to copy whole, wider than the column if it must be', () => {
    const lines = formatHelpItem('path', 4, 'the path, from `storage-backup browse site_1 sb_1`', 40).split('\n');
    expect(lines).toEqual(['  path  the path, from', '        `storage-backup browse site_1 sb_1`']);
  });

  it('wraps a term wider than the width at its words, and a term wider than the column goes above its description', () => {
    expect(formatHelpItem('browse|ls-files [options] <site> <backupId> [path]', 40, 'List the files', 40)).toBe(
      '  browse|ls-files [options] <site>\n    <backupId> [path]\n      List the files',
    );
    expect(formatHelpItem('NO_COLOR, CLICOLOR_FORCE', 10, 'colour policy', 60)).toBe(
      '  NO_COLOR, CLICOLOR_FORCE\n      colour policy',
    );
    expect(formatHelpItem('help [command]', 14, '', 40)).toBe('  help [command]');
  });
});

describe('the usage line', () => {
  const usage = 'Usage: sitebuilder publish [options] [site]  |  <site...>  |  -  |  --workspace ID --all-sites';

  it('wraps at words under its start, an alternative with its bar, no line ending in one', () => {
    expect(formatUsage(usage, 60).split('\n')).toEqual([
      'Usage: sitebuilder publish [options] [site]  |  <site...>',
      '       |  -  |  --workspace ID --all-sites',
    ]);
    expect(formatUsage(usage, 40).split('\n')).toEqual([
      'Usage: sitebuilder publish [options]',
      '       [site]  |  <site...>  |  -',
      '       |  --workspace ID --all-sites',
    ]);
    expect(formatUsage('Usage: sitebuilder site list [options]', 40)).toBe('Usage: sitebuilder site list [options]');
  });

  it('keeps a flag with its placeholder', () => {
    const lines = formatUsage(usage, 80).split('\n');
    expect(lines).toEqual([
      'Usage: sitebuilder publish [options] [site]  |  <site...>  |  -',
      '       |  --workspace ID --all-sites',
    ]);
  });
});

describe('a table of the help', () => {
  const table = [
    'Environment:',
    '  SITEBUILDER_TOKEN     token (wins over the saved profile; --token wins over it)',
    '  SITEBUILDER_SITE      default site',
    '  NO_COLOR, CLICOLOR=0, FORCE_COLOR   colour policy',
  ].join('\n');

  it('stays as it is where it fits, wraps in its column, and goes under its terms at a narrow width', () => {
    expect(formatHelpTable(table, 90)).toBe(table);
    expect(formatHelpTable(table, 60).split('\n')).toEqual([
      'Environment:',
      '  SITEBUILDER_TOKEN     token (wins over the saved profile;',
      '                        --token wins over it)',
      '  SITEBUILDER_SITE      default site',
      '  NO_COLOR, CLICOLOR=0, FORCE_COLOR   colour policy',
    ]);
    expect(formatHelpTable(table, 40).split('\n')).toEqual([
      'Environment:',
      '  SITEBUILDER_TOKEN',
      '      token (wins over the saved',
      '      profile; --token wins over it)',
      '  SITEBUILDER_SITE',
      '      default site',
      '  NO_COLOR, CLICOLOR=0, FORCE_COLOR',
      '      colour policy',
    ]);
  });
});

describe('every command’s help', async () => {
  const commands = await loadCommands();
  const wide = helpTexts(commands, 80);

  for (const width of [80, 60, 40]) {
    it(`fits ${width} columns with the words of the 80-column text, in order, and every example whole`, () => {
      const texts = helpTexts(commands, width);
      expect(Object.keys(texts)).toEqual(Object.keys(wide));
      for (const [path, text] of Object.entries(texts)) {
        const what = `${path || 'sitebuilder'} at ${width}`;
        // Wider: only an example (a command to copy), one shell word of one alone on a continued line, or one word.
        const over = text
          .split('\n')
          .filter(
            (line) =>
              displayWidth(line) > width &&
              !/^\s*(\$ \S.*|sitebuilder \S.*|\S+)$|^ {6}(\S*"[^"]*"\S*|\S*'[^']*'\S*|\S+)( \\)?$/.test(line),
          );
        expect(over, what).toEqual([]);
        expect(helpWords(text), what).toEqual(helpWords(wide[path]));
        // Every example the same command line, whole or continued with ` \`.
        expect(helpExamples(text), what).toEqual(helpExamples(wide[path]));
      }
    });
  }
});

describe('the CLI at a narrow terminal', async () => {
  const commands = await loadCommands();

  it('lays out the help it is asked for, and the help of a noun without its verb, at the terminal’s width', async () => {
    for (const [argv, path, width] of [
      [['publish', '--help'], 'publish', 60],
      [['-qh'], '', 40],
      [['help', 'site', 'list'], 'site list', 40],
      [['storage-backup', 'help', 'browse'], 'storage-backup browse', 50],
    ] as const) {
      const res = await run([...argv], { tty: true, columns: width });
      expect([res.code, res.stdout], argv.join(' ')).toEqual([0, helpTexts(commands, width)[path]]);
    }
    const noun = await run(['site'], { tty: true, columns: 40 });
    expect([noun.code, noun.stderr]).toEqual([2, helpTexts(commands, 40).site]);
  });
});

describe('examples wider than the help', () => {
  it('are continued with ` \\` between shell words, never inside quotes or $( ), their comment above', () => {
    const lines = formatExample(
      `sitebuilder chat site_bakery "Use a darker theme" --json | jq -c 'select(.type == "end")'   # the end line`,
      50,
    );
    expect(lines).toEqual([
      '  # the end line',
      '  $ sitebuilder chat site_bakery \\',
      '      "Use a darker theme" --json | jq -c \\',
      `      'select(.type == "end")'`,
    ]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(50);
    // Run by a shell, the continued lines are the one command they were.
    const joined = lines
      .slice(1)
      .map((l) => l.replace(/^ {2}\$ | {6}/, '').replace(/ \\$/, ''))
      .join(' ');
    expect(joined).toBe(`sitebuilder chat site_bakery "Use a darker theme" --json | jq -c 'select(.type == "end")'`);
  });

  it('stay as they are when they fit, and a word wider than the line whole', () => {
    expect(formatExample('sitebuilder publish s_1', 80)).toEqual(['  $ sitebuilder publish s_1']);
    expect(shellSpans(`a "b c" $(d e) 'f # g' # h`)).toEqual({
      spans: ['a', '"b c"', '$(d e)', `'f # g'`],
      comment: 'h',
    });
    // A $( ) wider than the line is continued inside, where no quote is open.
    expect(formatExample('URL=$(sitebuilder publish s_123 --timeout 5m)', 40)).toEqual([
      '  $ URL=$(sitebuilder publish s_123 \\',
      '      --timeout 5m)',
    ]);
    const long = formatExample(`sitebuilder api x -f confirm="$(jq -r .confirm plan.json)"`, 30);
    expect(long).toContain(`  $ sitebuilder api x -f \\`);
    expect(long.at(-1)).toBe(`      confirm="$(jq -r .confirm plan.json)"`);
  });
});
