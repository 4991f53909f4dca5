// The colour level of a run, decided once from the conventions of the environment and the
// flags (docs/scripting.md "Output contract"); the IO object (io.ts) paints at that level.
export type ColorLevel = 0 | 1 | 2 | 3;

export interface ColorInputs {
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
  noColorFlag: boolean;
}

/**
 * chalk does not honour every convention by itself, so the level is decided here once: NO_COLOR
 * (any value), --no-color, CLICOLOR=0, TERM=dumb and a non-TTY turn it off; on a terminal,
 * FORCE_COLOR / CLICOLOR_FORCE force it on over CLICOLOR=0 and TERM=dumb (FORCE_COLOR=0 forces
 * it off). Piped output is data and never carries an ANSI byte, whatever they say
 * (docs/scripting.md "Output contract"): CI runners set FORCE_COLOR for their logs, and the
 * scripts there read our rows.
 */
export function decideColorLevel({ env, stdoutIsTTY, noColorFlag }: ColorInputs): ColorLevel {
  if (noColorFlag || !stdoutIsTTY) return 0;
  if (env.NO_COLOR !== undefined) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    const n = Number(force);
    return (n >= 1 && n <= 3 ? n : 1) as ColorLevel;
  }
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '0') return 1;
  if (env.CLICOLOR === '0') return 0;
  if (env.TERM === 'dumb') return 0;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (env.TERM && /256/.test(env.TERM)) return 2;
  return 1;
}
