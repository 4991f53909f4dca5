// The streamed request body (api/body-stream.ts) through the real transport (api/client.ts)
// to a server on 127.0.0.1: the body is the JSON it stands for, byte for byte; it is produced a
// piece at a time as the socket takes it, never built whole (asserted on the order of events,
// not on timings); a retry streams it again from its start with the same key; the 150 MB limit
// is checked before anything is produced; a piece that cannot be made, and Ctrl-C, stop it.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeBody, StreamedString } from '../../src/api/body-stream.js';
import { ApiClient } from '../../src/api/client.js';
import { FakeClock } from '../../src/clock.js';
import { CliError, InterruptedError, UsageError } from '../../src/errors.js';

const PIECE = 256 * 1024;

/** `count` pieces of base64-safe text, made only when asked for; what happened is logged. */
class Pieces extends StreamedString {
  readonly byteLength: number;
  readonly events: string[] = [];
  made = 0;
  opened = 0;
  closed = 0;
  constructor(
    private readonly count: number,
    private readonly failAt = -1,
  ) {
    super();
    this.byteLength = count * PIECE;
  }
  async *chunks(): AsyncGenerator<Buffer> {
    this.opened++;
    try {
      for (let i = 0; i < this.count; i++) {
        if (i === this.failAt) throw new CliError('piece.bin changed while it was being sent; it was not stored.');
        this.made += PIECE;
        this.events.push(`made ${i}`);
        yield Buffer.alloc(PIECE, 65 + (i % 26));
      }
    } finally {
      this.closed++;
    }
  }
}

interface Seen {
  bytes: number;
  sha: string;
  key?: string;
  complete: boolean;
}

let server: Server;
let baseUrl: string;
let seen: Seen[];
/** Per request: its status (the body read whole first), or 'hold' to stop reading it. */
let statuses: Array<number | 'hold'>;

beforeEach(async () => {
  seen = [];
  statuses = [];
  server = createServer((req: IncomingMessage, res) => {
    const hash = createHash('sha256');
    const entry: Seen = { bytes: 0, sha: '', key: req.headers['idempotency-key'] as string, complete: false };
    seen.push(entry);
    const status = statuses.shift() ?? 200;
    req.on('data', (c: Buffer) => {
      entry.bytes += c.length;
      hash.update(c);
    });
    req.on('error', () => {});
    if (status === 'hold') return void req.pause();
    req.on('end', () => {
      entry.complete = true;
      entry.sha = hash.digest('hex');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: status < 300, message: 'ok', data: { url: 'x' }, code: status }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = () =>
  new ApiClient({ baseUrl, token: 'sb_test_0123456789abcdef', clock: new FakeClock(), random: () => 0 });
const collect = async (it: AsyncIterable<Buffer>) => {
  const parts: Buffer[] = [];
  for await (const p of it) parts.push(p);
  return Buffer.concat(parts);
};

describe('streamed body', () => {
  it('is the JSON it stands for, byte for byte, with its length known first', async () => {
    const text = 'QUJD'.repeat(1000);
    const value = new (class extends StreamedString {
      readonly byteLength = text.length;
      async *chunks() {
        for (let i = 0; i < text.length; i += 333) yield Buffer.from(text.slice(i, i + 333));
      }
    })();
    const args = {
      projectId: 'site_ü "quoted"',
      fileName: 'a/b\u2028.png',
      contentBase64: value,
      contentType: 'image/png',
    };
    const body = encodeBody(args);
    if (typeof body === 'string') throw new Error('not streamed');
    const expected = JSON.stringify({ ...args, contentBase64: text });
    expect(body.byteLength).toBe(Buffer.byteLength(expected));
    expect((await collect(body.chunks())).toString('utf8')).toBe(expected);
    // Read again from its start (a retry).
    expect((await collect(body.chunks())).toString('utf8')).toBe(expected);
    // Without a streamed argument: the same text as ever.
    expect(encodeBody({ a: 1, b: 'x' })).toBe('{"a":1,"b":"x"}');
  });

  it('is produced a piece at a time as the socket takes it, never ahead of it', async () => {
    const pieces = new Pieces(256); // 64 MiB of body
    const sent: number[] = [];
    const c = client();
    const res = await c.call(
      'upload_storage_file',
      { projectId: 'site_1', fileName: 'big.bin', contentBase64: pieces },
      {
        onSent: (n, total) => {
          sent.push(n);
          pieces.events.push(`sent ${n}/${total}`);
        },
      },
    );
    c.close();
    expect(res.status).toBe(200);
    const body =
      pieces.byteLength + Buffer.byteLength('{"projectId":"site_1","fileName":"big.bin","contentBase64":""}');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ bytes: body, complete: true });
    // The socket took the bytes in order, up to the whole body.
    expect(sent.at(-1)).toBe(body);
    expect(sent.every((n, i) => i === 0 || n > sent[i - 1])).toBe(true);
    // Piece i is made only once piece i-2 has been taken by the socket: at most one piece (and
    // the text before it) is ever waiting to go out, so memory does not grow with the body.
    let taken = 0;
    for (const e of pieces.events) {
      const m = /^made (\d+)$/.exec(e);
      if (m) expect((Number(m[1]) - 1) * PIECE, e).toBeLessThanOrEqual(taken);
      else taken = Number(/^sent (\d+)/.exec(e)?.[1]);
    }
  });

  it('is streamed again from its start, with the same key, when a retry follows a 503', async () => {
    statuses = [503, 200];
    const pieces = new Pieces(8);
    const c = client();
    const res = await c.call('upload_storage_file', { projectId: 'site_1', fileName: 'a.bin', contentBase64: pieces });
    c.close();
    expect(res.attempts).toBe(2);
    expect(pieces.opened).toBe(2);
    expect(seen.map((s) => s.complete)).toEqual([true, true]);
    expect(seen[1].sha).toBe(seen[0].sha);
    expect(seen[1].key).toBe(seen[0].key);
    expect(seen[0].key).toMatch(/^[\x21-\x7e]+$/);
  });

  it('checks the 150 MB limit from the length alone: nothing made, nothing sent', async () => {
    const pieces = new Pieces(Math.ceil((150 * 1024 * 1024) / PIECE) + 1);
    const c = client();
    await expect(
      c.call('upload_storage_file', { projectId: 'site_1', fileName: 'a.bin', contentBase64: pieces }),
    ).rejects.toThrow(UsageError);
    c.close();
    expect(pieces.opened).toBe(0);
    expect(seen).toHaveLength(0);
  });

  it('stops when a piece cannot be made: that error, no retry, the body never whole', async () => {
    const pieces = new Pieces(64, 20);
    const c = client();
    const err = await c
      .call('upload_storage_file', { projectId: 'site_1', fileName: 'a.bin', contentBase64: pieces })
      .catch((e: unknown) => e);
    c.close();
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/changed while it was being sent/);
    expect(pieces.opened).toBe(1);
    await expect.poll(() => seen.length === 1 && !seen[0].complete).toBe(true);
    expect(seen[0].bytes).toBeLessThan(pieces.byteLength);
  });

  it('stops at once on Ctrl-C: the call ends, no more pieces are made', async () => {
    statuses = ['hold'];
    const pieces = new Pieces(400);
    const controller = new AbortController();
    const c = client();
    const call = c.call(
      'upload_storage_file',
      { projectId: 'site_1', fileName: 'a.bin', contentBase64: pieces },
      { signal: controller.signal },
    );
    // The server stopped reading: the socket fills, and the producer waits for it.
    await expect.poll(() => pieces.made > 0 && seen.length === 1).toBe(true);
    controller.abort(new InterruptedError());
    await expect(call).rejects.toBeInstanceOf(InterruptedError);
    c.close();
    await expect.poll(() => pieces.closed).toBe(1);
    expect(pieces.made).toBeLessThan(pieces.byteLength);
    expect(seen[0].complete).toBe(false);
  });
});
