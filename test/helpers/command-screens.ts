// Several commands of the built binary in one real terminal (tmux), one after another, each after
// a marker line: what each left on the screen, by its command line. For the suites that check
// many outputs at a width (fit-tty, trial-layout-tty) without a terminal each.
import { resolve } from 'node:path';
import { TmuxSession } from './tmux.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');

/** Runs `lines` (arguments of `sitebuilder`, as shell words) at `cols` columns; the screen of each, by its line. */
export async function commandScreens(
  env: Record<string, string>,
  cols: number,
  lines: string[],
  timeoutMs = 30_000,
): Promise<Map<string, string>> {
  const script = lines.map((c) => `echo '== ${c}'; '${process.execPath}' '${BIN}' ${c}; echo "code $?"`).join('; ');
  const t = new TmuxSession(['sh', '-c', `${script}; echo '== end'`], env, { cols, rows: 50, history: 2000 });
  try {
    const all = await t.waitFor(/^EXIT=\d+$/m, timeoutMs);
    const parts = all.split(/^== /m).slice(1);
    return new Map(parts.map((p) => [p.slice(0, p.indexOf('\n')), p.slice(p.indexOf('\n') + 1)]));
  } finally {
    void t.kill();
  }
}
