// What the pretty view says of a run: the spinner's label while it runs, the credits beside it,
// and the one line on stdout when it ends, on a terminal and in plain output (views.ts).
import { formatElapsed } from '../io/spinner.js';
import { sanitizeInline } from '../io/sanitize.js';
import type { style } from '../io/style.js';
import { creditsOfRun, failureMessage } from './reducer.js';
import type { RunEnd } from './run-view.js';

/** The spinner's label for a state of the run. */
export function stateLabel(state: string): string {
  if (state === 'stalled') return 'The agent stalled; waiting for it to go on';
  if (state === 'running' || state === 'unknown') return 'The agent is working';
  return `Run ${state}`;
}

export const creditsText = (n: number | undefined) => (n === undefined ? '' : ` · ${n} credit${n === 1 ? '' : 's'}`);

/** The end line: how the run ended, how long it took, its credits; a failure already printed is not said again. */
export function endLine(end: RunEnd, c: ReturnType<typeof style>, printedErrors: ReadonlySet<string>): string {
  const s = end.state;
  const credits = creditsText(creditsOfRun(s));
  // Durations as measured: a run attached to is not said to have taken the time it was watched.
  const took =
    end.runMs !== undefined
      ? ` in ${formatElapsed(end.runMs)}`
      : end.watchedMs !== undefined
        ? ` after ${formatElapsed(end.watchedMs)} of watching`
        : '';
  const failure = sanitizeInline(failureMessage(s)).trim();
  const line: Record<string, string> = {
    succeeded: `${c.green('✓')} Done${took}${credits}`,
    question: `${c.cyan('?')} The agent asked a question${took}${credits}`,
    plan: `${c.cyan('✓')} Plan ready${took}${credits}`,
    failed: `${c.red('✗')} Failed${took}${printedErrors.has(failure) ? '' : `: ${failure}`}${credits}`,
    cancelled: `${c.yellow('■')} Cancelled${took}${credits}; what the agent already wrote stays`,
    detached: `${c.yellow('↗')} Stopped following${end.reason === 'connection_lost' ? ': no connection to the service' : ''}`,
    timeout: `${c.yellow('…')} Still running after ${formatElapsed(end.elapsedMs)}`,
    ongoing: `Still running`,
  };
  return line[end.outcome] ?? `Run ${s.state}`;
}

/** The end line of plain output: `end`, the outcome, `exit=N`, and the credits and reason when known. */
export function plainEndLine(end: RunEnd): string {
  const credits = creditsOfRun(end.state);
  const fields = [
    'end',
    end.outcome === 'detached' || end.outcome === 'timeout' ? end.outcome : end.state.state,
    `exit=${end.exitCode}`,
  ];
  if (credits !== undefined) fields.push(`credits=${credits}`);
  if (end.reason) fields.push(`reason=${end.reason}`);
  return fields.join('\t');
}
