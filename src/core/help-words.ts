// `help` among the words of a command line: what it asks for, as a command line commander
// answers (core/run.ts loads this only when `help` is there).
import type { AnyCommandDefinition } from './define.js';
import type { NounEntry } from './nouns.js';

/** nouns.ts's findNoun, handed over by run.ts (an import would split it out of the entry chunk). */
type FindNoun = (word: string | undefined) => NounEntry | undefined;

/**
 * `help site list` and `site help list` are `site list --help`: commander's help command takes
 * one word only, and a noun with arguments of its own (`publish help`) would take "help" as one.
 * Only among the words before any option but the program's, and only next to a noun that exists.
 */
function helpAsFlag(words: string[], rest: string[], findNoun: FindNoun): string[] | undefined {
  const at = words[0] === 'help' && findNoun(words[1]) ? 0 : findNoun(words[0]) && words[1] === 'help' ? 1 : -1;
  return at < 0 ? undefined : [...words.toSpliced(at, 1), ...rest, '--help'];
}

/**
 * `help sit` and `help site lsit` are typos of a command, answered as `sit` and `site lsit` are
 * (commander's "unknown command … (Did you mean site?)", exit 2), not with the program's or the
 * noun's whole help. Only where nothing can run: an unknown noun, or an unknown verb of a noun
 * that does nothing by itself (`help publish site_1` stays `publish site_1 --help`). `help help` is `--help`.
 */
function helpTopicTypo(
  words: string[],
  rest: string[],
  commands: AnyCommandDefinition[],
  findNoun: FindNoun,
): string[] | undefined {
  const at = words[0] === 'help' ? 1 : words[1] === 'help' && findNoun(words[0]) ? 2 : -1;
  if (at < 0 || words.length <= at) return undefined;
  const topic = at === 1 ? words.slice(1) : [words[0], ...words.slice(2)];
  if (topic[0] === 'help') return [...rest, '--help'];
  const noun = findNoun(topic[0]);
  if (!noun) return [...topic, ...rest];
  const def = commands.find((c) => c.name === noun.name);
  const verb = topic[1];
  if (!def?.subcommands?.length || def.run || verb === undefined || verb === 'help') return undefined;
  const known = def.subcommands.some((sub) => sub.name === verb || sub.aliases?.includes(verb));
  return known ? undefined : [...topic, ...rest];
}

/** The command line that `help` among the words stands for; undefined: the line as it is. */
export function helpArgv(
  words: string[],
  rest: string[],
  commands: AnyCommandDefinition[],
  findNoun: FindNoun,
): string[] | undefined {
  return helpTopicTypo(words, rest, commands, findNoun) ?? helpAsFlag(words, rest, findNoun);
}
