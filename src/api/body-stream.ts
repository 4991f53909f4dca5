// A request body sent as it is produced (docs/scripting.md "How calls are made"): an argument
// whose text is long (a file's base64, for upload_storage_file) is a StreamedString, and the
// JSON body around it is written to the socket piece by piece, each piece asked for only when
// the socket has taken the last. The body is never built whole, so memory stays flat however
// large the file; its exact length is known before anything is sent (Content-Length, the 150 MB
// limit), and a retry reads it again from its start.
import type { ClientRequest } from 'node:http';

/**
 * A JSON string argument produced piece by piece. Its text needs no escaping (base64 does not),
 * so its bytes go into the body as they come, between quotes.
 */
export abstract class StreamedString {
  /** Bytes of the text, quotes left out. */
  abstract readonly byteLength: number;
  /** The text from its start, every time it is called (a retry sends it again). */
  abstract chunks(): AsyncIterable<Buffer>;
}

/** A body of known length whose bytes are produced as they are sent. */
export interface StreamedBody {
  readonly byteLength: number;
  chunks(): AsyncIterable<Buffer>;
}

export type Body = string | StreamedBody;

/** Told of the bytes of one attempt's body the socket has taken so far (from 0 again on a retry). */
export type SentListener = (sent: number, total: number) => void;

/** The body of a call: JSON text, or a StreamedBody when an argument is a StreamedString. */
export function encodeBody(args: Record<string, unknown>): Body {
  const streamed = Object.entries(args).filter(([, v]) => v instanceof StreamedString);
  if (streamed.length === 0) return JSON.stringify(args);
  // Each streamed value is held by a mark no argument can contain, and the text cut around it.
  const mark = (i: number) => `sitebuilder-streamed-${globalThis.crypto.randomUUID()}-${i}`;
  const marks = streamed.map((_, i) => mark(i));
  const withMarks = { ...args };
  streamed.forEach(([k], i) => {
    withMarks[k] = marks[i];
  });
  let text = JSON.stringify(withMarks);
  const parts: Array<Buffer | StreamedString> = [];
  streamed.forEach(([, v], i) => {
    const [before, after] = text.split(`"${marks[i]}"`);
    parts.push(Buffer.from(`${before}"`), v as StreamedString, Buffer.from('"'));
    text = after;
  });
  parts.push(Buffer.from(text));
  return {
    byteLength: parts.reduce((n, p) => n + p.byteLength, 0),
    async *chunks() {
      for (const p of parts) {
        if (Buffer.isBuffer(p)) yield p;
        else yield* p.chunks();
      }
    },
  };
}

/** The arguments as the checks of validate.ts see them: a streamed value stands as text ('' ). */
export function checkedArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = v instanceof StreamedString ? '' : v;
  return out;
}

export const bodyBytes = (body: Body | undefined): number =>
  body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

/**
 * Writes the body and ends the request. A StreamedBody is written piece by piece as the socket
 * drains; the bytes it has taken are counted as their writes complete (what was handed to the
 * network, not what was produced). It stops at once when the request is destroyed (Ctrl-C, the
 * deadline) or answered early; a piece that cannot be produced (the file changed) destroys the
 * request with that error, so an incomplete body is never ended as if it were whole.
 */
export function writeBody(req: ClientRequest, body: Body | undefined, onSent?: SentListener): void {
  if (body === undefined || typeof body === 'string') {
    req.end(body);
    return;
  }
  let answered = false;
  req.once('response', () => {
    answered = true;
  });
  const over = () => answered || req.destroyed;
  const total = body.byteLength;
  let sent = 0;
  const pump = async () => {
    for await (const chunk of body.chunks()) {
      if (over()) return;
      const room = req.write(chunk, (err) => {
        if (!err) onSent?.((sent += chunk.length), total);
      });
      if (!room) await drained(req);
    }
    if (!over()) req.end();
  };
  pump().catch((err: Error) => req.destroy(err));
}

/** Resolves when the request can take more, or is gone. */
function drained(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}
