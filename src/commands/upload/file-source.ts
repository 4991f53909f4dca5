// A file to upload, as the base64 text of upload_storage_file's `contentBase64`, produced piece
// by piece from the file (api/body-stream.ts) so it is never held whole. The file is opened
// non-blocking and checked on the opened descriptor: a path that became a FIFO, a device or
// another file since it was checked (files.ts) is refused, never waited on. It is read with a
// bound (exactly the size that was checked) from the same descriptor on every attempt, so a
// retry sends the same bytes with the same key; a file that shrinks or grows meanwhile stops
// the body before its end, so the service never receives it whole.
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { StreamedString } from '../../api/body-stream.js';
import { CliError, UsageError } from '../../errors.js';
import type { UploadPlanItem } from './files.js';

/** File bytes read at a time: a multiple of 3, so each piece is base64 on its own (no padding inside). */
const PIECE = 3 * 64 * 1024;

const kindOf = (st: import('node:fs').Stats): string =>
  st.isFIFO()
    ? 'a FIFO'
    : st.isDirectory()
      ? 'a directory'
      : st.isSocket()
        ? 'a socket'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : 'not a regular file';

export class Base64File extends StreamedString {
  readonly byteLength: number;

  private constructor(
    private readonly handle: FileHandle,
    private readonly item: UploadPlanItem,
  ) {
    super();
    this.byteLength = 4 * Math.ceil(item.size / 3);
  }

  /** Opens the file of a checked plan item; UsageError (nothing of it sent) when it changed since. */
  static async open(item: UploadPlanItem): Promise<Base64File> {
    let handle: FileHandle;
    try {
      // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting for one.
      handle = await open(item.file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new UsageError(`Cannot read ${item.file} any more (${code}); it was not sent.`, { file: item.file });
    }
    try {
      const st = await handle.stat();
      if (!st.isFile())
        throw new UsageError(
          `${item.file} is now ${kindOf(st)}, not the regular file that was checked; it was not sent.`,
          { file: item.file },
        );
      if (st.size !== item.size)
        throw new UsageError(
          `${item.file} changed after it was checked (${item.size} bytes then, ${st.size} now); it was not sent. Upload it again.`,
          { file: item.file },
        );
      return new Base64File(handle, item);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async *chunks(): AsyncGenerator<Buffer> {
    const { size } = this.item;
    const buf = Buffer.allocUnsafe(PIECE);
    for (let at = 0; at < size; ) {
      const want = Math.min(PIECE, size - at);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await this.handle.read(buf, got, want - got, at + got);
        if (bytesRead === 0) throw this.changed('shrank');
        got += bytesRead;
      }
      at += got;
      // Before the last piece goes out: a file that grew is not sent as if whole.
      if (at === size && (await this.handle.read(Buffer.alloc(1), 0, 1, size)).bytesRead > 0)
        throw this.changed('grew');
      yield Buffer.from(buf.subarray(0, got).toString('base64'), 'latin1');
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  private changed(how: string): CliError {
    return new CliError(
      `${this.item.file} ${how} while it was being sent; it was not stored. Upload it again once it is no longer being written.`,
      { file: this.item.file },
    );
  }
}
