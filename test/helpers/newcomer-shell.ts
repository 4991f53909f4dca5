// Shells as a newcomer has them after `npm link`: bash in a real terminal (tmux), `sitebuilder`
// on the PATH (the built binary), a home and a configuration directory of their own, prompt `$ `.
// For the suites that type README's commands as a person would (quick-start-tty, restart-tty).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { TmuxSession } from './tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');

/** A new home with `sitebuilder` on its PATH: where its configuration goes, and a shell's environment. */
export function newcomerHome(prefix: string): { config: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'sitebuilder'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'sitebuilder'), 0o755);
  const config = join(home, 'config');
  const env = {
    HOME: home,
    PATH: `${bin}:${process.env.PATH}`,
    PS1: '$ ',
    TERM: 'xterm-256color',
    SITEBUILDER_CONFIG_DIR: config,
  };
  return { config, env };
}

/** Call at the top of a file: the function it returns opens a shell, killed once the file is done. */
export function newcomerShells(): (env: Record<string, string>, cols: number) => TmuxSession {
  const sessions: TmuxSession[] = [];
  afterAll(() => {
    for (const s of sessions.splice(0)) s.kill();
  });
  return (env, cols) => {
    const s = new TmuxSession(['bash', '--norc', '--noprofile'], env, { cols, rows: 40 });
    sessions.push(s);
    return s;
  };
}

/** The shell waits for a command: its prompt is the last line. */
export const atPrompt = (screen: string) => /(^|\n)\$$/.test(screen.trimEnd());

/** Types a line at the shell's prompt, as a person does once the prompt shows. */
export async function typeLine(t: TmuxSession, line: string): Promise<void> {
  await t.waitFor(atPrompt);
  await t.send('-l', line);
  await t.send('Enter');
}
