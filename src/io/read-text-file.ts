// A text file named on the command line (--message-file, --prompt-file, api's @file and
// --input), read so that it can never hang the CLI (docs/reliability.md): opened without
// blocking and checked to be a regular file — a FIFO with no writer, a terminal or a device would
// wait forever, and cannot be told apart from a slow one — then read up to a bound. A pipe is
// read through standard input instead (`-`), where waiting for it is what was asked for.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { formatCount, LIMITS } from '../api/limits.js';
import { sanitizeInline } from './sanitize.js';

/** A message or a brief of the service's longest (LIMITS.promptMax characters) at four bytes a character. */
export const PROMPT_FILE_MAX_BYTES = 4 * LIMITS.promptMax;

export interface TextFileOptions {
  /** How the file was named, to start the sentence: "--message-file" (empty: the path alone). */
  flag: string;
  /** The most bytes read; a larger file is refused. */
  maxBytes: number;
}

const kindOf = (st: ReturnType<typeof fstatSync>): string =>
  st.isFIFO()
    ? 'a FIFO (a named pipe)'
    : st.isDirectory()
      ? 'a directory'
      : st.isCharacterDevice() || st.isBlockDevice()
        ? 'a device'
        : st.isSocket()
          ? 'a socket'
          : 'not a regular file';

/** The text of a regular file, at most maxBytes; a UsageError (nothing sent) for anything else. */
export function readTextFile(path: string, { flag, maxBytes }: TextFileOptions): string {
  const shown = `${flag ? `${flag} ` : ''}${sanitizeInline(path)}`;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
    throw new UsageError(`Cannot read ${shown} (${why}); nothing was sent.`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new UsageError(
        `${shown} is ${kindOf(st)}, not a file; nothing was sent. To read from a pipe, give - instead and send it on standard input.`,
      );
    if (st.size > maxBytes)
      throw new UsageError(
        `${shown} is ${formatCount(st.size)} bytes; at most ${formatCount(maxBytes)} are read. Nothing was sent.`,
      );
    // One byte more than its size: a file that grew meanwhile is seen, and never read past the bound.
    const buf = Buffer.alloc(st.size + 1);
    let at = 0;
    for (let n = 1; n > 0 && at < buf.length; at += n) n = readSync(fd, buf, at, buf.length - at, null);
    if (at > st.size) throw new UsageError(`${shown} changed while it was read; nothing was sent.`);
    return buf.subarray(0, at).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
