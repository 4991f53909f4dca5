// The site ids seen lately, per profile, for shell completion: the bash, zsh and fish scripts
// (completions/) read this file with shell builtins, never starting node (docs/guide.md "Shell
// completion"). One line a site, `profile<TAB>id<TAB>name`, the most recently seen first, at
// most PER_PROFILE a profile and TOTAL in all. It lives beside config.json (mode 0600, in the
// private directory) and holds no token. A cache: written whole, best effort, never failing a
// command; an id that a shell could take for syntax is not kept.
import { sanitizeInline } from '../io/sanitize.js';
import { ensurePrivateDir, readPrivateFile, writeFileAtomic } from './private-dir.js';

export const SITE_IDS_FILE = 'site-ids';
const PER_PROFILE = 200;
const TOTAL = 2000;
const NAME_MAX = 60;
/** What the completion scripts can offer as a word as it is. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface SeenSite {
  id: string;
  name?: string;
}

const field = (text: string) => sanitizeInline(text).replace(/\t/g, ' ').trim();

/** The lines of the file, with `seen` first for `profile`. */
export function mergeSiteIds(text: string | undefined, profile: string, seen: SeenSite[]): string {
  const mine = new Map<string, string>();
  for (const s of seen) {
    if (SAFE_ID.test(s.id) && !mine.has(s.id)) mine.set(s.id, field(s.name ?? '').slice(0, NAME_MAX));
  }
  const others: string[] = [];
  for (const line of (text ?? '').split('\n')) {
    const [p, id, name = ''] = line.split('\t');
    if (!id || !SAFE_ID.test(id)) continue;
    if (p === profile) {
      if (!mine.has(id)) mine.set(id, name);
    } else others.push(line);
  }
  const lines = [...mine].slice(0, PER_PROFILE).map(([id, name]) => `${profile}\t${id}\t${name}`);
  return `${[...lines, ...others].slice(0, TOTAL).join('\n')}\n`;
}

/** Adds the sites seen to the profile's ids; anything that goes wrong only costs the completion. */
export function rememberSiteIds(dir: string, profile: string, seen: SeenSite[]): void {
  if (seen.length === 0 || /[\t\n]/.test(profile)) return;
  try {
    ensurePrivateDir(dir);
    const path = `${dir}/${SITE_IDS_FILE}`;
    const text = readPrivateFile(dir, path);
    const next = mergeSiteIds(text, profile, seen);
    if (next !== text) writeFileAtomic(path, next);
  } catch {
    // A read-only or foreign directory, a concurrent writer: the ids are kept another time.
  }
}
