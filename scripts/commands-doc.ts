// docs/commands.md, rendered from the command tree: every command's usage, description,
// arguments, options (with choices and defaults), examples and --json output, as its --help
// says them. scripts/commands-reference.mjs writes the file (`npm run docs:commands`) and
// test/scripts/commands-reference.test.ts fails while it is out of date. The man page
// (scripts/man-page.ts) reads the same tree through commandTree().
// The one place that imports the tree: when the framework moves, only these lines change.
import { loadCommands } from '../src/core/nouns.js';
import { GLOBAL_OPTIONS, VERSION_FLAGS } from '../src/core/global-options.js';
import { ENVIRONMENT_HELP } from '../src/core/help-after.js';

/** What the reference reads of a definition (CommandDefinition, structurally). */
export interface Command {
  name: string;
  aliases?: readonly string[];
  hidden?: boolean;
  summary: string;
  description?: string;
  args?: readonly { name: string; description: string; required?: boolean; variadic?: boolean }[];
  options?: readonly Option[];
  examples?: readonly string[];
  usage?: string;
  jsonFields?: string;
  exitCodes?: string;
  learnMore?: string;
  subcommands?: readonly Command[];
}

export interface Option {
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: unknown;
  hidden?: boolean;
}

/**
 * Markdown would read `<site>` as a tag, and `*` or a `_` at the edge of a word (`_id`) as
 * emphasis: they are escaped outside code spans.
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/[<>*]|(?<!\w)_|_(?!\w)/g, (c) => `\\${c}`)))
    .join('');
}

export const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

const cell = (text: string) => prose(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;

/** The usage line, as commander writes it unless the definition gives its own. */
export function usage(path: string, c: Command): string {
  if (c.usage) return `sitebuilder ${path} ${c.usage}`;
  const args = (c.args ?? []).map((a) => {
    const label = `${a.name}${a.variadic ? '...' : ''}`;
    return a.required ? `<${label}>` : `[${label}]`;
  });
  return ['sitebuilder', path, '[options]', ...(c.subcommands?.length ? ['[command]'] : []), ...args].join(' ');
}

function optionMeaning(o: Option): string {
  const notes: string[] = [];
  if (o.choices) notes.push(`choices: ${o.choices.map((v) => code(v)).join(', ')}`);
  if (o.default !== undefined) notes.push(`default: ${code(String(o.default))}`);
  return cell(o.description) + (notes.length ? ` (${notes.join('; ')})` : '');
}

const anchor = (path: string) => path.replace(/ /g, '-');

/** A help's `docs/guide.md#section`, as a link from docs/commands.md. */
const link = (target: string) => {
  const local = target.replace(/^docs\//, '');
  return `[${local}](${local})`;
};

function section(c: Command, parent: string, noun?: Command): string[] {
  const path = parent ? `${parent} ${c.name}` : c.name;
  const depth = parent ? '###' : '##';
  const out = [`${depth} ${path}`, '', prose(sentence(c.summary)), '', '```', usage(path, c), '```', ''];
  if (c.aliases?.length) out.push(`Also: ${c.aliases.map((a) => code(parent ? `${parent} ${a}` : a)).join(', ')}.`, '');
  if (c.description && c.description !== c.summary) {
    for (const line of c.description.split('\n').filter((l) => l.trim())) out.push(prose(line), '');
  }
  if (c.args?.length) {
    out.push('| argument | meaning |', '| --- | --- |');
    for (const a of c.args) {
      const label = `${a.name}${a.variadic ? '...' : ''}`;
      out.push(`| ${code(a.required ? `<${label}>` : `[${label}]`)} | ${cell(a.description)} |`);
    }
    out.push('');
  }
  const options = (c.options ?? []).filter((o) => !o.hidden);
  if (options.length) {
    out.push('| option | meaning |', '| --- | --- |');
    for (const o of options) out.push(`| ${code(o.flags)} | ${optionMeaning(o)} |`);
    out.push('');
  }
  const subs = (c.subcommands ?? []).filter((s) => !s.hidden);
  if (subs.length) {
    out.push(`Subcommands: ${subs.map((s) => `[${s.name}](#${anchor(`${path} ${s.name}`)})`).join(', ')}.`, '');
  }
  if (c.examples?.length) out.push('Examples:', '', '```sh', ...c.examples, '```', '');
  if (c.jsonFields) out.push(`With \`--json\`: ${prose(c.jsonFields)}`, '');
  if (c.exitCodes) out.push(`Exit codes: ${prose(c.exitCodes)}.`, '');
  const learnMore = c.learnMore ?? noun?.learnMore;
  if (learnMore) out.push(`Learn more: ${learnMore.split(', ').map(link).join(', ')}.`, '');
  for (const s of subs) out.push(...section(s, path, c));
  return out;
}

/** The commands a user sees (the hidden ones left out), as the reference and the man page read them. */
export async function commandTree(): Promise<Command[]> {
  return ((await loadCommands()) as Command[]).filter((c) => !c.hidden);
}

/** The whole of docs/commands.md. */
export async function commandsReference(): Promise<string> {
  const tree = await commandTree();
  const lines = [
    '# Command reference',
    '',
    '<!-- Generated from the command tree by `npm run docs:commands` (scripts/commands-reference.mjs). Do not edit. -->',
    '',
    'Every command of `sitebuilder`, as its `--help` describes it (`sitebuilder help <command>` prints the same).',
    'Exit codes are in [README.md](../README.md#exit-codes); what `--json` prints, and how to script',
    'the commands, in [scripting.md](scripting.md).',
    '',
    `Commands: ${tree.map((c) => `[${c.name}](#${anchor(c.name)})`).join(', ')}.`,
    '',
    '## Global options',
    '',
    'Accepted by every command.',
    '',
    '| option | meaning |',
    '| --- | --- |',
    `| ${code(VERSION_FLAGS)} | print the version |`,
    ...GLOBAL_OPTIONS.map((o) => `| ${code(o.flags)} | ${optionMeaning(o)} |`),
    '| `-h, --help` | the help of the command |',
    '',
    '```',
    ENVIRONMENT_HELP,
    '```',
    '',
  ];
  for (const c of tree) lines.push(...section(c, ''));
  return `${lines.join('\n').trimEnd()}\n`;
}
