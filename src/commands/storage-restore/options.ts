// Options shared by `storage-restore <site>` and `storage-restore plan <site>`. commander lets
// the parent parse the ones they share, so both define them identically (same parsers).
import { RECONNECT_FOR_OPTION } from '../shared/reconnect-option.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf, OptionDefinition } from '../../core/define.js';
import { parseDuration } from '../../core/define.js';
import { normalizePaths } from './request.js';

const collectPath = (value: string, previous: unknown): string[] => [
  ...((previous as string[] | undefined) ?? []),
  value,
];

export const SELECTION_OPTIONS = [
  { flags: '-b, --backup <id>', description: 'the storage backup (from `storage-backup list`)' },
  {
    flags: '-m, --mode <mode>',
    description: 'full: make the storage match the backup; selected: only the --path files and folders',
    choices: ['full', 'selected'],
  },
  {
    flags: '--path <path>',
    description: 'selected mode: a file, or a folder ending with a slash (repeat, at most 200)',
    parse: collectPath,
  },
] as const satisfies readonly OptionDefinition[];

/** The selection flags as run() gets them. */
type RestoreSelectionOptions = FlagsOf<typeof SELECTION_OPTIONS>;

export const FOLLOW_OPTIONS = [
  {
    flags: '--confirm <value>',
    description: 'the confirm value from the plan: starts exactly that plan, without a prompt',
  },
  { flags: '--wait', description: 'follow the restore until it reads completed (the default)' },
  { flags: '--no-wait', description: 'return as soon as the restore has started' },
  {
    flags: '--timeout <duration>',
    description: 'stop following after this long (default 30m) and exit 8; the restore goes on',
    parse: parseDuration('--timeout'),
  },
  RECONNECT_FOR_OPTION,
] as const satisfies readonly OptionDefinition[];

/** Checks the flags before anything is sent; answers the normalized paths. */
export function checkSelection(o: RestoreSelectionOptions): string[] {
  if (o.backup !== undefined && o.backup.trim() === '')
    throw new UsageError('--backup is empty; `sitebuilder storage-backup list` shows the ids.');
  return normalizePaths(o.mode, o.path);
}
