// Sites named as arguments to `chat` with several sites: each one must be a site the token can
// see before anything is sent. An unknown one is a mistyped id (the closest ids are offered) or
// a word of an unquoted message (the command is shown with the message quoted): exit 2 either way.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { siteExists } from './site-exists.js';

/** How many sites named on the command line are looked up at once (the scheduler paces them). */
const LOOKUPS_AT_ONCE = 8;

/** "a", "a or b", "a, b or c". */
const either = (ids: string[]): string =>
  ids.length < 2 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} or ${ids[ids.length - 1]}`;

/** The site arguments before the unknown ids that end them. */
function beforeTrailingUnknown(siteArgs: string[], unknown: ReadonlySet<string>): string[] {
  let trailing = 0;
  while (trailing < siteArgs.length && unknown.has(siteArgs[siteArgs.length - 1 - trailing])) trailing++;
  return siteArgs.slice(0, siteArgs.length - trailing);
}

/** Whether the unknown ids are the last arguments before the message: the words of an unquoted message. */
function areMessageWords(siteArgs: string[], unknown: ReadonlySet<string>, message?: string): boolean {
  const before = beforeTrailingUnknown(siteArgs, unknown);
  return message !== undefined && before.length < siteArgs.length && !before.some((a) => unknown.has(a));
}

/**
 * Sites named as arguments that the service does not know: exit 2, nothing sent. An unquoted
 * message (`chat s_1 hello there friend`) reads as sites `hello` and `there` and the message
 * `friend`; where the unknown ids are the last ones before the message, the sentence shows the
 * command with the message quoted. The ids come from the command line, checked by checkId.
 */
export function unknownSitesError(
  siteArgs: string[],
  unknown: ReadonlySet<string>,
  message?: string,
  near: ReadonlyMap<string, string[]> = new Map(),
): UsageError {
  const named = [...new Set(siteArgs.filter((a) => unknown.has(a)))];
  const head = `No site has the id ${either(named.map(sanitizeInline))}, so nothing was sent`;
  const before = beforeTrailingUnknown(siteArgs, unknown);
  if (!areMessageWords(siteArgs, unknown, message)) {
    const meant = named
      .filter((id) => near.get(id)?.length)
      .map((id) => `${near.get(id)!.map(sanitizeInline).join(' or ')} for ${sanitizeInline(id)}`);
    const guess = meant.length ? ` Did you mean ${meant.join(', ')}?` : '';
    return new UsageError(
      `${head}; check the ids (\`${sb('site list')}\` shows the sites this token reaches).${guess}`,
    );
  }
  const words = [...siteArgs.slice(before.length), message].join(' ');
  const command = sb('chat', ...(before.length ? before : ['SITE']), words.length > 60 ? '…' : words);
  const what =
    words.length > 60
      ? `the words from ${sanitizeInline(siteArgs[before.length])} on are`
      : `"${sanitizeInline(words)}" is`;
  return new UsageError(`${head}; if ${what} the message, quote it: ${command}`);
}

/**
 * Several sites named as arguments: each must be one the token can see, before anything is
 * sent. One read a site (siteExists), a few at once, each at the batch's scheduler.
 */
export async function requireKnownSites(
  ctx: Context,
  siteArgs: string[],
  sites: string[],
  message?: string,
): Promise<void> {
  const unknown = new Set<string>();
  let next = 0;
  const lookUp = async () => {
    while (next < sites.length) {
      const site = sites[next++];
      if (!(await siteExists(ctx, site))) unknown.add(site);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, sites.length) }, lookUp));
  if (unknown.size === 0) return;
  // A few mistyped ids: the closest the token reaches, from one bounded read (site-suggest.ts).
  const near = new Map<string, string[]>();
  if (unknown.size <= 3 && !areMessageWords(siteArgs, unknown, message)) {
    const { closestIds, reachableSiteIds } = await import('./site-suggest.js');
    const ids = await reachableSiteIds(ctx);
    for (const id of unknown) near.set(id, closestIds(id, ids));
  }
  throw unknownSitesError(siteArgs, unknown, message, near);
}
