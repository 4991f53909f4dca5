#!/usr/bin/env node
// Requests per second of the emulator on loopback, 10 concurrent keep-alive connections:
// list_sites (a real method: auth, budget, validation, handler, envelope) and an unknown method
// (the cheapest path). The emulator runs as the built binary in its own process, so the load
// generator does not share its event loop. Each measurement is bounded in time.
//   node bench/emulator.mjs [--seconds 5] [--connections 10]
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 5);
const CONNECTIONS = arg('connections', 10);
const WARMUP_MS = 1000;

const root = fileURLToPath(new URL('..', import.meta.url));
const child = spawn(process.execPath, ['bin/sitebuilder.js', 'emulator', '--json'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { baseUrl, tokens } = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
  });
  child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
});
const base = new URL(baseUrl);

// The budget is 240 calls a minute per token, so list_sites rotates through tokens minted
// with the control API.
async function control(path, body) {
  const res = await fetch(`${baseUrl}/_emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()).data;
}

/**
 * A minimal HTTP/1.1 client on raw sockets (one request in flight per connection, keep-alive),
 * so the load generator costs far less than the server it measures.
 */
function measure(label, path, body, tokenFor) {
  const payload = JSON.stringify(body);
  const requestBytes = (n) =>
    Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: Bearer ${tokenFor(n)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
    );
  let n = 0;
  let done = 0;
  let counting = false;
  let stop = false;
  const statuses = new Map();
  const connection = () =>
    new Promise((resolve, reject) => {
      const socket = net.connect(Number(base.port), base.hostname);
      socket.setNoDelay(true);
      let buffer = Buffer.alloc(0);
      const next = () => {
        if (stop) {
          socket.end();
          return resolve();
        }
        socket.write(requestBytes(n++));
      };
      socket.on('connect', next);
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
        for (;;) {
          const headEnd = buffer.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = buffer.subarray(0, headEnd).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < headEnd + 4 + length) return;
          const status = Number(head.slice(9, 12));
          buffer = buffer.subarray(headEnd + 4 + length);
          if (counting) {
            done++;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
          if (/\r\nconnection: *close/i.test(head))
            return reject(new Error('the server closed a keep-alive connection'));
          next();
        }
      });
    });
  return new Promise((resolve, reject) => {
    const workers = Array.from({ length: CONNECTIONS }, connection);
    let t0;
    setTimeout(() => {
      counting = true;
      t0 = process.hrtime.bigint();
    }, WARMUP_MS);
    setTimeout(
      () => {
        counting = false;
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        stop = true;
        Promise.all(workers).then(
          () =>
            resolve({
              label,
              rps: Math.round(done / seconds),
              requests: done,
              seconds: Number(seconds.toFixed(2)),
              statuses: Object.fromEntries(statuses),
            }),
          reject,
        );
      },
      WARMUP_MS + SECONDS * 1000,
    );
  });
}

try {
  // 200 calls per token, and enough tokens that none is used again within the run (up to
  // 15,000 req/s): the measurement never meets the 240-call minute.
  const tokenCount = Math.ceil(((WARMUP_MS / 1000 + SECONDS) * 15_000) / 200);
  const minted = [];
  for (let i = 0; i < tokenCount; i += 50) {
    const batch = Array.from({ length: Math.min(50, tokenCount - i) }, (_, j) =>
      control('tokens', { name: `bench-${i + j}`, scopes: ['sites:read'] }),
    );
    minted.push(...(await Promise.all(batch)).map((t) => t.token));
  }
  const rotating = (n) => minted[Math.floor(n / 200) % minted.length];
  const results = [];
  results.push(await measure('list_sites', '/v1/list_sites', { workspaceId: 'ws_demo' }, rotating));
  results.push(await measure('unknown method', '/v1/no_such_method', {}, () => tokens[0].token));
  console.log(
    `emulator on ${baseUrl}, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_MS} ms of warm-up (Node ${process.version})`,
  );
  for (const r of results) {
    const ok = r.rps >= 5000 ? 'meets' : 'MISSES';
    console.log(
      `  ${r.label.padEnd(15)} ${String(r.rps).padStart(7)} req/s  (${r.requests} requests, statuses ${JSON.stringify(r.statuses)}) ${ok} the 5,000 req/s target`,
    );
  }
} finally {
  child.kill('SIGTERM');
}
