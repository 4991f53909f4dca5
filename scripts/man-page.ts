// sitebuilder.1, the man page, rendered from the command tree as docs/commands.md is
// (scripts/commands-doc.ts): the global options, every command with its usage, description,
// arguments, options, examples, exit codes and Learn more, the environment and the exit
// codes, as --help says them.
// scripts/commands-reference.mjs writes it (`npm run docs:commands`); test/scripts/man-page.test.ts
// fails while it is out of date and renders it with groff.
import { GLOBAL_OPTIONS, PROGRAM_DESCRIPTION, VERSION_FLAGS } from '../src/core/global-options.js';
import { ENVIRONMENT_HELP, EXIT_CODE_HELP } from '../src/core/help-after.js';
import { type Command, commandTree, type Option, sentence, usage } from './commands-doc.js';

/**
 * Text as roff reads it: a backslash is `\e`, a dash `\-` (so that `--json` copied from the page
 * is ASCII on every device), anything past ASCII a `\[uXXXX]` escape, and a line that would start
 * with a control character (`.` or `'`) is protected with `\&`.
 */
export function roff(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(
      /[^\x00-\x7f]/gu,
      (c) => `\\[u${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}]`,
    );
  return escaped.replace(/^([.'])/gm, '\\&$1');
}

/** Prose from a definition: `code` spans in bold, the rest as is. */
const prose = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? `\\fB${roff(part.slice(1, -1))}\\fR` : roff(part)))
    .join('');

const bold = (text: string) => `\\fB${roff(text)}\\fR`;

function optionItem(o: Option): string[] {
  const notes: string[] = [];
  if (o.choices) notes.push(`choices: ${o.choices.join(', ')}`);
  if (o.default !== undefined) notes.push(`default: ${String(o.default)}`);
  return ['.TP', bold(o.flags), prose(o.description) + (notes.length ? ` (${roff(notes.join('; '))})` : '')];
}

function section(c: Command, parent: string, noun?: Command): string[] {
  const path = parent ? `${parent} ${c.name}` : c.name;
  const out = [`.SS ${bold(path)}`, prose(sentence(c.summary)), '.PP', bold(usage(path, c))];
  if (c.aliases?.length)
    out.push('.br', `Also: ${c.aliases.map((a) => bold(parent ? `${parent} ${a}` : a)).join(', ')}.`);
  if (c.description && c.description !== c.summary)
    for (const line of c.description.split('\n').filter((l) => l.trim())) out.push('.PP', prose(line));
  if (c.args?.length) out.push('.PP', 'Arguments:');
  for (const a of c.args ?? []) {
    const label = `${a.name}${a.variadic ? '...' : ''}`;
    out.push('.TP', `\\fI${roff(a.required ? `<${label}>` : `[${label}]`)}\\fR`, prose(a.description));
  }
  const options = (c.options ?? []).filter((o) => !o.hidden);
  if (options.length) out.push('.PP', 'Options:', ...options.flatMap(optionItem));
  if (c.examples?.length) out.push('.PP', 'Examples:', '.RS 4', '.nf', ...c.examples.map(roff), '.fi', '.RE');
  if (c.jsonFields) out.push('.PP', `With ${bold('--json')}: ${prose(c.jsonFields)}`);
  // As --help ends (src/core/help-after.ts): the exit codes in one line, then where the rest is.
  if (c.exitCodes) out.push('.PP', `Exit codes: ${prose(c.exitCodes)}.`);
  const learnMore = c.learnMore ?? noun?.learnMore;
  if (learnMore) out.push('.PP', `Learn more: ${prose(learnMore)}.`);
  for (const s of (c.subcommands ?? []).filter((s) => !s.hidden)) out.push(...section(s, path, c));
  return out;
}

/** `  NAME   meaning` lines of a help text (after its heading) as tagged paragraphs. */
function tagged(help: string, gap: RegExp): string[] {
  return help
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const [name, meaning] = line.trim().split(gap);
      return ['.TP', bold(name), prose(meaning ?? '')];
    });
}

/** The whole of sitebuilder.1. */
export async function manPage(version: string, description: string): Promise<string> {
  const tree = await commandTree();
  const lines = [
    '.\\" Generated from the command tree by `npm run docs:commands` (scripts/man-page.ts). Do not edit.',
    `.TH SITEBUILDER 1 "" "sitebuilder ${roff(version)}" "User Commands"`,
    // Ragged right, and no word broken at a line's end: ids and flags are copied from here.
    '.ad l',
    '.nh',
    '.SH NAME',
    `sitebuilder \\- ${roff(description)}`,
    '.SH SYNOPSIS',
    `${bold('sitebuilder')} [\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]`,
    '.SH DESCRIPTION',
    prose(PROGRAM_DESCRIPTION),
    `Every command prints its own help with ${bold('--help')}; this page holds them all.`,
    'The user guide, the scripting contract and the local emulator are described in',
    'README.md and the docs directory of the installed package',
    `(for a global install, ${bold('$(npm root -g)/sitebuilder')}).`,
    '.SH OPTIONS',
    'Accepted by every command.',
    '.TP',
    bold(VERSION_FLAGS),
    'print the version',
    ...GLOBAL_OPTIONS.flatMap(optionItem),
    '.TP',
    bold('-h, --help'),
    'the help of the command',
    '.SH COMMANDS',
    ...tree.flatMap((c) => section(c, '')),
    '.SH ENVIRONMENT',
    ...tagged(ENVIRONMENT_HELP, /\s{2,}/),
    '.SH EXIT STATUS',
    ...tagged(EXIT_CODE_HELP, /\s{2,}/),
    '.SH SEE ALSO',
    'README.md, docs/guide.md (the user guide), docs/commands.md (this reference),',
    'docs/scripting.md (output, exit codes, retries) and docs/emulator.md, in the package.',
  ];
  return `${lines.join('\n')}\n`;
}
