// The agent's text outside a followed run (a plan that still waits, a question, a history row):
// on a terminal, with Markdown on, rendered (render/markdown/, loaded only here, when needed);
// elsewhere as it came, sanitized. A script reading a pipe or --json gets the raw Markdown.
import type { IO } from '../io/io.js';
import { sanitize, sanitizeInline } from '../io/sanitize.js';

const renders = (io: IO, stream: 'stdout' | 'stderr') =>
  io.markdown && !io.json && (stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY);

/** A text (a plan) as the lines to print on `stream`. */
export async function agentText(
  io: IO,
  text: string,
  stream: 'stdout' | 'stderr' = 'stdout',
  signal?: AbortSignal,
): Promise<string> {
  const clean = sanitize(text);
  // --no-markdown on a terminal: the text as it came, wrapped between words to the width.
  if (!renders(io, stream)) return io.markdown ? clean : io.prose(clean, stream);
  const md = await import('./markdown/index.js');
  const rows = await md.renderMarkdownAsync(clean, io.columns - 1, md.themeFor(io), signal);
  return rows ? rows.join('\n') : clean;
}

/** A text that goes on one line (a question, a prompt's choice): its markup rendered, without colour. */
export async function agentLine(io: IO, text: string, stream: 'stdout' | 'stderr' = 'stderr'): Promise<string> {
  if (!renders(io, stream)) return sanitizeInline(text);
  const md = await import('./markdown/index.js');
  return md.renderInline(sanitize(text), md.PLAIN_THEME);
}
