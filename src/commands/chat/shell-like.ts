// A line typed at the conversation's prompt that was likely meant for the shell or for the
// conversation itself, not for the agent (a paid run): a shell command (`clear`, `ls`, `cd ..`,
// `git status`), a word that leaves a program (`exit`, `q`, `:wq`), or a slash command mistyped
// (`/exti`). The conversation asks before sending such a line (interactive.ts).
import { editDistance } from './site-suggest.js';

/** Words that, alone, are a command to a shell or a program, never a request to an agent. */
const ALONE = new Set([
  'clear',
  'cls',
  'reset',
  'exit',
  'quit',
  'q',
  'bye',
  'logout',
  'ls',
  'll',
  'dir',
  'pwd',
  'cd',
  'whoami',
  'help',
  'history',
  'top',
  'htop',
  ':q',
  ':q!',
  ':wq',
  ':x',
  'exit()',
  'quit()',
]);

/** Commands whose arguments are flags and paths (`cat index.html`, `cd ..`, `ls -la`). */
const COMMANDS = new Set([
  'cd',
  'ls',
  'cat',
  'less',
  'more',
  'head',
  'tail',
  'rm',
  'mv',
  'cp',
  'mkdir',
  'touch',
  'chmod',
  'grep',
  'find',
  'vim',
  'vi',
  'nano',
  'code',
  'open',
  'echo',
  'source',
  'make',
  'man',
  'kill',
  'curl',
  'ssh',
]);

/** Tools with subcommands (`git status`, `npm install`): short lower-case words are arguments too. */
const TOOLS = new Set([
  'git',
  'npm',
  'npx',
  'node',
  'yarn',
  'pnpm',
  'python',
  'python3',
  'pip',
  'sudo',
  'docker',
  'kubectl',
  'brew',
  'export',
  'sitebuilder',
]);

/** An argument of a command line: a flag, a path or a file name, a variable. */
const PATHLIKE = /^(-{1,2}[\w-]+(=\S*)?|[~./]\S*|[\w.-]*[/.][\w./-]*|\$\w+|\w+=\S*)$/;
const WORD = /^[a-z][a-z0-9_-]{0,15}$/;

/** Why the line looks meant for the shell (a short phrase), or undefined. */
export function looksLikeShell(line: string): string | undefined {
  const text = line.trim();
  const words = text.split(/\s+/);
  const [first, ...args] = words;
  if (args.length === 0 && ALONE.has(first.toLowerCase())) return `“${text}” looks like a command for the shell`;
  if (args.length === 0 || args.length > 4) return undefined;
  const command =
    (COMMANDS.has(first) && args.every((w) => PATHLIKE.test(w))) ||
    (TOOLS.has(first) && args.every((w) => PATHLIKE.test(w) || WORD.test(w)));
  return command ? `“${text}” looks like a shell command` : undefined;
}

/**
 * Why a line of the conversation looks meant for something else than the agent: a slash word
 * that is no command (or a command followed by words), or a shell command. Undefined: a message.
 */
export function oddLine(line: string, commands: readonly string[]): string | undefined {
  const first = line.trim().split(/\s+/)[0];
  if (!/^\/\w+$/.test(first)) return looksLikeShell(line);
  if (commands.includes(first)) return `${first} is a command that takes no words`;
  const near = slashTypo(first, commands);
  return `${first} is not a command${near ? ` (did you mean ${near}?)` : ''}`;
}

/** A slash command mistyped: the known one it is closest to, if any. */
export function slashTypo(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { c: string; d: number } | undefined;
  for (const c of known) {
    const d = editDistance(w, c);
    if (d <= 1 && (!best || d < best.d)) best = { c, d };
  }
  return best?.c;
}
