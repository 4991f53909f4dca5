// The completion tree: what the shells offer at each point of a command line, taken from the
// commander program (so it matches exactly what the parser accepts) and from the command
// definitions (for the values of positional arguments). The bash, zsh and fish scripts are
// rendered from it; they answer without starting node.
import type { Command, Option } from 'commander';
import type { AnyCommandDefinition, ArgumentDefinition } from '../core/define.js';

export interface CompletionWord {
  value: string;
  description: string;
}

export interface CompletionFlag {
  /** Short and long spellings, e.g. ['-L', '--limit']. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** Enumerated values (`--mode full|selected`). */
  choices?: string[];
  /** The value is a file name. */
  files?: boolean;
}

export interface CompletionNode {
  /** Canonical names from the root, e.g. ['site', 'list']; [] for the root. */
  path: string[];
  description: string;
  /** Child commands by canonical name; aliases in `aliases`. */
  children: Array<{ name: string; aliases: string[]; description: string; node: CompletionNode }>;
  /** Flags of this command (the global ones are in CompletionTree.globalFlags). */
  flags: CompletionFlag[];
  /** What is offered for each positional argument, by position. */
  positionals: CompletionPositional[];
}

export interface CompletionPositional {
  words: CompletionWord[];
  files: boolean;
  /**
   * Site ids: the ones the CLI saw lately for the profile in force, which the scripts read from
   * <config dir>/site-ids (config/site-ids.ts) with shell builtins.
   */
  sites?: boolean;
  /** The last argument takes any number of values. */
  variadic: boolean;
}

export interface CompletionTree {
  program: string;
  root: CompletionNode;
  /** Accepted after any command (commander parses the program's options anywhere). */
  globalFlags: CompletionFlag[];
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');

const FILE_VALUE = /<(file|path|dir)[^>]*>|\bFILE\b/i;

function flagOf(opt: Option): CompletionFlag {
  const names = [opt.short, opt.long].filter((n): n is string => Boolean(n));
  const takesValue = Boolean(opt.required || opt.optional);
  const flag: CompletionFlag = { names, description: oneLine(opt.description ?? ''), takesValue };
  if (opt.argChoices?.length) flag.choices = [...opt.argChoices];
  else if (takesValue && FILE_VALUE.test(opt.flags)) flag.files = true;
  return flag;
}

const HELP_FLAG: CompletionFlag = { names: ['-h', '--help'], description: 'show help', takesValue: false };

async function positionalOf(arg: ArgumentDefinition): Promise<CompletionPositional> {
  const suggest = typeof arg.suggest === 'function' ? await arg.suggest() : arg.suggest;
  const variadic = Boolean(arg.variadic);
  if (arg.name === 'site') return { words: [], files: false, variadic, sites: true };
  if (suggest === 'files') return { words: [], files: true, variadic };
  if (!suggest) return { words: [], files: /file/i.test(arg.name), variadic };
  const words = suggest.map((s) =>
    typeof s === 'string'
      ? { value: s, description: '' }
      : { value: s.value, description: oneLine(s.description ?? '') },
  );
  return { words, files: false, variadic };
}

/** What the shells offer for the positional argument at index i (counting after the command path). */
export function positionalAt(node: CompletionNode, i: number): CompletionPositional | undefined {
  const last = node.positionals[node.positionals.length - 1];
  return node.positionals[i] ?? (last?.variadic ? last : undefined);
}

async function nodeOf(cmd: Command, def: AnyCommandDefinition | undefined, path: string[]): Promise<CompletionNode> {
  const children: CompletionNode['children'] = [];
  for (const sub of cmd.commands) {
    const subDef = def?.subcommands?.find((d) => d.name === sub.name());
    const child = await nodeOf(sub, subDef, [...path, sub.name()]);
    children.push({ name: sub.name(), aliases: [...sub.aliases()], description: child.description, node: child });
  }
  if (children.length > 0) {
    // commander's implicit `help [command]`.
    const help: CompletionNode = {
      path: [...path, 'help'],
      description: 'show help for a command',
      children: [],
      flags: [],
      positionals: [
        { words: children.map((c) => ({ value: c.name, description: c.description })), files: false, variadic: false },
      ],
    };
    children.push({ name: 'help', aliases: [], description: help.description, node: help });
  }
  const isRoot = path.length === 0;
  const flags = isRoot ? [HELP_FLAG] : [...cmd.options.filter((o) => !o.hidden).map(flagOf), HELP_FLAG];
  return {
    path,
    description: oneLine(cmd.summary() || cmd.description()),
    children,
    flags,
    positionals: await Promise.all((def?.args ?? []).map(positionalOf)),
  };
}

/** Builds the tree from a commander program and the definitions it was built from. */
export async function completionTree(program: Command, commands: AnyCommandDefinition[]): Promise<CompletionTree> {
  const root = await nodeOf(program, { name: program.name(), summary: '', subcommands: commands }, []);
  return { program: program.name(), root, globalFlags: program.options.filter((o) => !o.hidden).map(flagOf) };
}

/** Every node, depth first (the root first). */
export function allNodes(tree: CompletionTree): CompletionNode[] {
  const out: CompletionNode[] = [];
  const walk = (n: CompletionNode) => {
    out.push(n);
    for (const c of n.children) walk(c.node);
  };
  walk(tree.root);
  return out;
}

export const pathKey = (path: string[]) => path.join(' ');

/** Every spelling of the flags; of those that take a value; each spelling with its flag's description. */
export const flagNames = (flags: CompletionFlag[]) => flags.flatMap((f) => f.names);
export const valueFlagNames = (flags: CompletionFlag[]) => flagNames(flags.filter((f) => f.takesValue));
export const flagWords = (flags: CompletionFlag[]): CompletionWord[] =>
  flags.flatMap((f) => f.names.map((value) => ({ value, description: f.description })));

/** What every shell script states about a node, whatever its syntax. */
export interface NodeFacts {
  node: CompletionNode;
  key: string;
  /** The names and aliases of its commands, with their descriptions. */
  commands: CompletionWord[];
  /** 1 when its last positional argument takes any number of values. */
  variadic: 0 | 1;
  /** Each child command: the words that name it, and its key. */
  children: Array<{ words: string[]; key: string }>;
}

/** allNodes, with what the scripts say about each. */
export function nodeFacts(tree: CompletionTree): NodeFacts[] {
  return allNodes(tree).map((node) => ({
    node,
    key: pathKey(node.path),
    commands: node.children.flatMap((c) =>
      [c.name, ...c.aliases].map((value) => ({ value, description: c.description })),
    ),
    variadic: node.positionals[node.positionals.length - 1]?.variadic ? 1 : 0,
    children: node.children.map((c) => ({ words: [c.name, ...c.aliases], key: pathKey(c.node.path) })),
  }));
}

/** The four tables every script holds, one branch (or several) a command of the tree each. */
export interface ScriptTables {
  /** What a command offers: its subcommands, flags, positionals. */
  spec: string[];
  /** Which command a word names under another. */
  child: string[];
  /** The values of a flag. */
  values: string[];
  /** What each positional takes. */
  positionals: string[];
}

/** The tables of a script, each branch written by the shell's own function. */
export function scriptTables(
  tree: CompletionTree,
  write: {
    spec(facts: NodeFacts): string;
    child(key: string, child: NodeFacts['children'][number]): string;
    values(key: string, node: CompletionNode): string[];
    positionals(node: CompletionNode): string[];
  },
): ScriptTables {
  const tables: ScriptTables = { spec: [], child: [], values: [], positionals: [] };
  for (const facts of nodeFacts(tree)) {
    tables.spec.push(write.spec(facts));
    for (const c of facts.children) tables.child.push(write.child(facts.key, c));
    tables.values.push(...write.values(facts.key, facts.node));
    tables.positionals.push(...write.positionals(facts.node));
  }
  return tables;
}

/** The prefix of a script's function names: the program's name as a shell identifier. */
export const functionName = (tree: CompletionTree, lead: string): string =>
  `${lead}${tree.program.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** What the completion of `words` (the words before the cursor, program excluded) should offer for `current`. */
export function expectedCompletions(tree: CompletionTree, words: string[], current: string): string[] {
  let node = tree.root;
  let positionals = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.startsWith('-')) {
      const flag = [...node.flags, ...tree.globalFlags].find((f) => f.names.includes(w));
      if (flag?.takesValue && !w.includes('=')) i++;
      continue;
    }
    const child = positionals === 0 ? node.children.find((c) => c.name === w || c.aliases.includes(w)) : undefined;
    if (child) node = child.node;
    else positionals++;
  }
  if (current.startsWith('-')) {
    return [...node.flags, ...tree.globalFlags].flatMap((f) => f.names).filter((n) => n.startsWith(current));
  }
  const commands = positionals === 0 ? node.children.flatMap((c) => [c.name, ...c.aliases]) : [];
  const words0 = [...commands, ...(positionalAt(node, positionals)?.words.map((a) => a.value) ?? [])];
  return [...new Set(words0)].filter((w) => w.startsWith(current)).sort();
}
