// Why no prompt can be shown: the one answer to "A conversation needs a terminal" when the
// person sits at one (prompter.ts's promptPossible turns prompts off for each of these).
import type { IO } from './io.js';
import { sanitizeInline } from './sanitize.js';

/**
 * What turned prompts off here, in words that name what to change, each reason once: `CI is set
 * (CI=true)`, `--json is given`, `standard input is not a terminal`, `standard error is not a
 * terminal`. Empty when nothing did.
 */
export function noPromptReason(io: IO, env: Record<string, string | undefined>): string {
  const reasons: string[] = [];
  if (env.CI) reasons.push(`CI is set (CI=${sanitizeInline(env.CI).slice(0, 40)})`);
  if (io.json) reasons.push('--json is given');
  if (!io.stdinIsTTY) reasons.push('standard input is not a terminal');
  if (!io.stderrIsTTY) reasons.push('standard error is not a terminal');
  return reasons.join(', ');
}

/** " (CI is set (CI=true))" to put after "no prompt is possible here"; empty when there is no reason. */
export function noPromptBecause(io: IO, env: Record<string, string | undefined>): string {
  const reason = noPromptReason(io, env);
  return reason ? ` (${reason})` : '';
}
