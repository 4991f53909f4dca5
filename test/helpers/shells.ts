// Completing a command line in real shells with the committed scripts of completions/:
// bash (with bash-completion when installed), zsh (compinit, through zpty) and fish.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
export const COMPLETIONS = join(ROOT, 'completions');
export const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

export const hasShell = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

/** Splits like readline: on blanks, and '=' is a word of its own. */
function readlineWords(line: string): string[] {
  const words = line
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => w.split(/(=)/).filter(Boolean));
  if (/\s$/.test(line) || line.endsWith('=')) words.push('');
  return words;
}

/** The environment of the shells: the suite's own, with `env` over it. */
const shellEnv = (env: Record<string, string> = {}) => ({ ...process.env, ...env });

export function bashComplete(lines: string[], withBashCompletion = true, env?: Record<string, string>): string[][] {
  const script = [
    withBashCompletion ? `source ${BASH_COMPLETION}` : '',
    `source ${join(COMPLETIONS, 'sitebuilder.bash')}`,
    ...lines.map((line) => {
      const words = readlineWords(line);
      const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
      return [
        `COMP_LINE='${line.replace(/'/g, `'\\''`)}'; COMP_POINT=\${#COMP_LINE}; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; COMPREPLY=()`,
        `_sitebuilder sitebuilder "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"`,
        `printf '%s\\n' "\${COMPREPLY[@]}"; echo --done--`,
      ].join('\n');
    }),
  ].join('\n');
  return sections(
    execFileSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', env: shellEnv(env) }),
  );
}

/** compinit's table of completion functions: one file for the process, made by its first zsh. */
let zcompdump: string | undefined;

export function zshComplete(lines: string[], env?: Record<string, string>): string[][] {
  const out = join(mkdtempSync(join(tmpdir(), 'sitebuilder-zsh-')), 'words');
  const helper = new URL('./zsh-complete.zsh', import.meta.url).pathname;
  zcompdump ??= join(mkdtempSync(join(tmpdir(), 'sitebuilder-zcompdump-')), 'zcompdump');
  execFileSync('zsh', ['-f', helper, COMPLETIONS, out, ...lines], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...shellEnv(env), ZCOMPDUMP: zcompdump },
  });
  return sections(existsSync(out) ? readFileSync(out, 'utf8') : '');
}

export function fishComplete(lines: string[], env?: Record<string, string>): string[][] {
  const script = [
    `source ${join(COMPLETIONS, 'sitebuilder.fish')}`,
    ...lines.map((l) => `complete -C '${l.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'; echo --done--`),
  ].join('\n');
  const text = execFileSync('fish', ['--no-config', '-c', script], { encoding: 'utf8', env: shellEnv(env) });
  return sections(text).map((words) => words.map((w) => w.split('\t')[0]));
}

/** Words per line, split at the --done-- markers; sorted, unique, blanks dropped. */
function sections(text: string): string[][] {
  return text
    .split(/^--done--$/m)
    .slice(0, -1)
    .map((s) => [...new Set(s.split('\n').filter((w) => w.trim() !== ''))].sort());
}
