// The follow-up commands a run printed (a line of its own, or between backticks in a sentence),
// split into words as a POSIX shell would, and whether a command is a template a person must
// complete (a placeholder: `'…'`, `<id>`, `JOB`).

/** A command as printed, and its words (null when a shell would do more than run it: a pipe, `$(…)`). */
export interface Printed {
  text: string;
  words: string[] | null;
}

/** Shell words: single quotes, double quotes (with backslash escapes), backslashes outside quotes. */
export function shellWords(command: string): string[] | null {
  if (/[|;&<>]|\$\(|`/.test(command.replace(/'[^']*'/g, "''"))) return null;
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < command.length && command[i] !== '"'; i++) text += command[i] === '\\' ? command[++i] : command[i];
      if (i >= command.length) return null;
      word = (word ?? '') + text;
    } else if (c === '\\') word = (word ?? '') + (command[++i] ?? '');
    else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Every `sitebuilder …` command a run printed, once each. */
export function printedCommands(output: string): Printed[] {
  const found = new Set<string>();
  for (const m of output.matchAll(/`(sitebuilder [^`\n]+)`/g)) found.add(m[1].trim());
  for (const line of output.split('\n')) {
    const m = /^\s*(?:[-*•]\s+)?(sitebuilder\s.+)$/.exec(line.replace(/`[^`]*`/g, ''));
    if (m) found.add(m[1].replace(/\s+#.*$/, '').trim());
    // "…: sitebuilder job watch S J" at the end of a sentence.
    const tail = /(?::|with|run)\s+(sitebuilder\s[^`]+?)\.?\s*$/.exec(line);
    if (tail && !line.includes('`')) found.add(tail[1].trim());
  }
  return [...found].map((text) => ({ text, words: shellWords(text) }));
}

/** A word a person is meant to replace: `…`, `<something>`, or a name in capitals such as JOB or SITE. */
export const isPlaceholder = (word: string): boolean =>
  word.includes('…') || /^<[^>]+>$/.test(word) || /^(JOB|SITE|ID|FILE|NAME|TEXT|MESSAGE|N)$/.test(word);

export const hasPlaceholder = (p: Printed): boolean => p.words === null || p.words.some(isPlaceholder);
