// Reading a body within the size limit, and writing a JSON answer (whole, or cut off halfway
// for the dropped-connection fault).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EmulatorRefusal } from './refusal.js';

/**
 * Reads a body without ever holding more than the limit: 413 from Content-Length before reading,
 * or as soon as the stream passes it. With `bytesPerSecond` (the bandwidth fault) the body is
 * read no faster than that: the stream is paused until each chunk's time has come, so the
 * sender's socket fills and it waits, as on a slow uplink.
 */
export function readBody(req: IncomingMessage, limit: number, bytesPerSecond?: number): Promise<Buffer> {
  const tooLarge = () =>
    new EmulatorRefusal(413, `The body is larger than ${Math.round(limit / 1024 / 1024)} MB; send a smaller one.`, {
      reason: 'body-too-large',
      limit,
    });
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const started = Date.now();
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (bytesPerSecond) {
        const wait = started + (size / bytesPerSecond) * 1000 - Date.now();
        if (wait > 0) {
          req.pause();
          setTimeout(() => req.resume(), wait);
        }
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      // The stream may end while paused for its last chunk's time (its end needs no more
      // reading): the body is whole only once that time has come.
      const wait = bytesPerSecond ? started + (size / bytesPerSecond) * 1000 - Date.now() : 0;
      if (wait > 0) setTimeout(() => resolve(body), wait);
      else resolve(body);
    });
    // The sender went away mid-body (Ctrl-C during an upload): nothing was received whole, so
    // nothing is done; the log says so (400), and it is no failure of the emulator's.
    req.on('error', (err) => {
      if (over) return;
      const cut = (err as NodeJS.ErrnoException).code === 'ECONNRESET';
      reject(cut ? new EmulatorRefusal(400, 'The body was cut off before its end.', { reason: 'body-cut-off' }) : err);
    });
  });
}

export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  drop = false,
): void {
  const text = JSON.stringify(body);
  const bytes = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(bytes.length),
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  if (!drop) {
    res.end(bytes);
    return;
  }
  // Half the answer, then the connection goes away: the client sees it cut off mid-answer.
  res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), () => res.socket?.destroy());
}
