// The refusals of the configuration directory (docs/guide.md "Authentication and profiles").
import { CliError, UsageError } from '../errors.js';

/**
 * The configuration directory, or a file in it, could be replaced by someone else. Exit 2: a
 * local setup problem found before anything is sent, fixed by choosing another directory; exit 4
 * would tell a script to log in again, which cannot help.
 */
export class ConfigDirError extends UsageError {}

/** Another process held the configuration lock for longer than any write takes. */
export class ConfigLockedError extends CliError {}

/** The file system refused (a read-only disk, no space, no permission): the sentence names the call. */
export class ConfigFileError extends CliError {}

/**
 * config.json cannot be read as a configuration (cut short, garbage, not an object). Exit 2: it is
 * never taken for "no token" (which would send a person to log in over their profiles), nor
 * saved over.
 */
export class ConfigBrokenError extends UsageError {}
