// Walkthrough step for a selected restore: browse the backup folder by folder and tick files
// and whole folders (at most 200 paths). One select prompt per step, each redrawn in place by
// the next where the terminal can redraw (the list is then said once, when it is done): ticking
// a folder covers everything below it, so ticks inside it are dropped.
import { itemsOf } from '../../api/paginate.js';
import { LIMITS } from '../../api/limits.js';
import type { Context } from '../../context.js';
import type { Choice } from '../../io/prompter.js';
import { readBrowseEntry } from '../../service/backups.js';
import { known } from '../../service/read.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { style } from '../../io/style.js';
import { cutWidth, displayWidth } from '../../io/width.js';
import { formatBytes } from '../shared/format.js';
import { sayCut } from '../../io/print.js';
import { sb } from '../../io/shell.js';
import type { MethodArgs } from '../../api/method-args.js';

interface Entry {
  path: string;
  name: string;
  folder: boolean;
  detail: string;
}

type Step = { kind: 'toggle'; entry: Entry } | { kind: 'open'; path: string } | { kind: 'up' } | { kind: 'done' };

const parentOf = (folder: string) => folder.replace(/[^/]+\/$/, '');

function toEntry(raw: unknown, folder: string): Entry {
  const e = readBrowseEntry(raw);
  const isDir = e.folder;
  let path = (known(e.path) ?? `${folder}${known(e.name) ?? ''}`).replace(/^\/+/, '');
  if (isDir && !path.endsWith('/')) path += '/';
  const name = path.slice(folder.length) || path;
  const files = known(e.files);
  const size = formatBytes(known(e.size));
  const visibility = known(e.visibility);
  const detail = isDir
    ? [files === undefined ? '' : `${files} file${files === 1 ? '' : 's'}`, size].filter(Boolean).join(', ')
    : [size, visibility].filter(Boolean).join(', ');
  return { path, name: sanitizeInline(name), folder: isDir, detail: sanitizeInline(detail) };
}

/** The keys of the browse, under its list. */
const KEYS = 'Space or Enter ticks · Enter opens';

/** The ticked folder that already covers this path, if any. */
const coveredBy = (selected: Set<string>, path: string): string | undefined =>
  [...selected].find((s) => s.endsWith('/') && s !== path && path.startsWith(s));

export async function pickPaths(ctx: Context, siteId: string, backupId: string): Promise<string[]> {
  ctx.prompter.require(
    'Choosing the files to restore',
    'pass --path P for each file or folder (a folder ends with a slash)',
  );
  const max = LIMITS.selectedPathsMax;
  const selected = new Set<string>();
  const cache = new Map<string, Entry[]>();
  let folder = '';
  // The line the cursor was on: the next step starts there (a tick redraws the list).
  let last: string | undefined;
  for (;;) {
    let entries = cache.get(folder);
    if (!entries) {
      const args: MethodArgs<'browse_storage_backup'> = { projectId: siteId, backupId };
      if (folder) args.path = folder;
      const { envelope } = await ctx.api().call('browse_storage_backup', args, { signal: ctx.signal });
      entries = itemsOf(envelope.data).map((e) => toEntry(e, folder));
      cache.set(folder, entries);
    }
    const choices: Choice<Step>[] = [];
    let cut = false;
    if (selected.size > 0)
      choices.push({
        label: `Done: restore the ${selected.size} ticked path${selected.size === 1 ? '' : 's'}`,
        value: { kind: 'done' },
      });
    if (folder) choices.push({ label: '.. (up a folder)', value: { kind: 'up' } });
    for (const e of entries) {
      const covering = coveredBy(selected, e.path);
      const mark = selected.has(e.path) || covering ? '[x]' : '[ ]';
      const inside = e.folder && !selected.has(e.path) ? [...selected].filter((s) => s.startsWith(e.path)).length : 0;
      const suffix = covering ? ` (in ${sanitizeInline(covering)})` : inside ? ` (${inside} ticked inside)` : '';
      const what = `${e.name}${e.folder ? ' (whole folder)' : ''}`;
      // enquirer leaves the picked line above the next prompt: show the mark it has after the pick.
      const tickedAfter = covering !== undefined || (!selected.has(e.path) && selected.size < max);
      const picked = `${tickedAfter ? '[x]' : '[ ]'} ${what}`;
      // One line of the terminal each: the detail gives way (cut with …) before the name.
      const whole = `${mark} ${what}  ${e.detail}${suffix}`;
      const label = cutWidth(whole, Math.max(ctx.io.columns - 4, displayWidth(`${mark} ${what}`)));
      if (label !== whole) cut = true;
      choices.push({ label, value: { kind: 'toggle', entry: e }, picked });
      if (e.folder) choices.push({ label: `    open ${e.name}`, value: { kind: 'open', path: e.path } });
    }
    if (entries.length === 0) ctx.io.errLine(`${folder || 'The backup'} is empty.`);
    // The question on one line, the keys under the list (they fit 40 columns).
    const where = `/${sanitizeInline(folder)}  (${selected.size}/${max} ticked)`;
    // Each step is redrawn in place by the next (transient): no line a tick in the scrollback.
    if (cut) sayCut(ctx.io, `${sb('storage-backup browse', siteId, backupId, ...(folder ? [folder] : []))} | cat`);
    const step = await ctx.prompter.select(where, choices, {
      transient: true,
      footer: KEYS,
      space: (i) => choices[i]?.value.kind === 'toggle',
      initial: Math.max(
        0,
        choices.findIndex((c) => c.value.kind === 'toggle' && c.value.entry.path === last),
      ),
    });
    if (step.kind === 'done') {
      const paths = [...selected];
      if (ctx.io.canRedraw)
        ctx.io.errLine(
          `${style(ctx.io).green('✔')} ${paths.length} path${paths.length === 1 ? '' : 's'} to restore: ${paths.map(sanitizeInline).join(', ')}`,
        );
      return paths;
    }
    if (step.kind === 'up') folder = parentOf(folder);
    else if (step.kind === 'open') folder = step.path;
    else {
      const p = step.entry.path;
      last = p;
      const covering = coveredBy(selected, p);
      if (covering)
        ctx.io.errLine(
          `${sanitizeInline(p)} is restored with the folder ${sanitizeInline(covering)}; untick the folder to pick inside it.`,
        );
      else if (selected.has(p)) selected.delete(p);
      else if (selected.size >= max)
        ctx.io.errLine(`At most ${max} paths can be restored at once; untick one, or tick a whole folder.`);
      else {
        if (step.entry.folder) for (const s of [...selected]) if (s.startsWith(p)) selected.delete(s);
        selected.add(p);
      }
    }
  }
}
