// OSC 8 hyperlinks: a link's text that opens its address when clicked, where the terminal is
// known to show them; elsewhere a link is printed as its text and its address. The sequences
// are ours, marked as ours (sanitize.ts markOwn), so the IO's writers keep them and
// remove any that came in the service's text. Only web and mail addresses become hyperlinks.
import { markOwn } from '../../io/sanitize.js';

const atLeast = (version: string | undefined, major: number, minor = 0): boolean => {
  const [a = 0, b = 0] = (version ?? '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  return a > major || (a === major && b >= minor);
};

/**
 * Whether the terminal shows OSC 8 hyperlinks: FORCE_HYPERLINK decides when set (0 or false
 * turns them off); otherwise only the terminals known to, and never inside tmux or screen
 * (which may drop or mangle them on the way through) or under CI.
 */
export function supportsHyperlinks(env: Record<string, string | undefined>): boolean {
  const force = env.FORCE_HYPERLINK;
  if (force !== undefined && force !== '') return !(force === '0' || force.toLowerCase() === 'false');
  const term = env.TERM ?? '';
  if (env.CI || env.TMUX || env.STY || /^(screen|tmux|dumb)/.test(term)) return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || term === 'xterm-kitty' || /^(foot|alacritty)/.test(term)) return true;
  if (env.VTE_VERSION && Number(env.VTE_VERSION) >= 5000) return true;
  if (env.KONSOLE_VERSION && Number(env.KONSOLE_VERSION) >= 201200) return true;
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return atLeast(env.TERM_PROGRAM_VERSION, 3, 1);
    case 'vscode':
      return atLeast(env.TERM_PROGRAM_VERSION, 1, 72);
    case 'WezTerm':
    case 'ghostty':
      return true;
    default:
      return false;
  }
}

/** An address a hyperlink may point to: http(s) or mailto, printable ASCII only. */
export const linkable = (href: string): boolean => /^(https?:\/\/|mailto:)[\x21-\x7e]+$/i.test(href);

/** `text` as a hyperlink to `href` (a linkable address); the text alone otherwise. */
export function hyperlink(href: string, text: string): string {
  return linkable(href) ? `${markOwn(`\u001b]8;;${href}\u001b\\`)}${text}${markOwn('\u001b]8;;\u001b\\')}` : text;
}
