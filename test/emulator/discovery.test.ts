// Rule 5: GET /v1/token, GET /v1/tools, GET /v1/openapi.json.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHOD_NAMES, METHODS } from '../../src/api/methods.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, send, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('GET /v1/token', () => {
  it('reads the token back without spending budget', async () => {
    const res = await h.get('/v1/token', { token: DEMO_TOKENS.narrow });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.name).toBe('demo-narrow');
    expect(d.scopes).toContain('sites:create');
    expect(d.workspaces).toEqual([{ _id: 'ws_demo', name: 'Demo Studio' }]);
    expect(d.expiresAt).toBeNull();
    expect(d.rateLimit).toEqual({ limit: 240, remaining: 240, reset: 60 });
    await h.get('/v1/token', { token: DEMO_TOKENS.narrow });
    expect((await h.get('/v1/token', { token: DEMO_TOKENS.narrow })).body.data.rateLimit.remaining).toBe(240);
  });

  it('shows an expiry, and needs a usable token', async () => {
    const t = h.emu.control.createToken({
      name: 'expiring',
      expiresInSeconds: 3600,
      scopes: ['sites:read'],
      workspaces: ['ws_free'],
    });
    const res = await h.get('/v1/token', { token: t.token });
    expect(Date.parse(res.body.data.expiresAt)).toBeGreaterThan(Date.now());
    expect(res.body.data.workspaces).toEqual([{ _id: 'ws_free', name: 'Side Projects' }]);
    expect((await h.get('/v1/token', { token: null })).status).toBe(401);
  });
});

describe('GET /v1/tools', () => {
  it('lists the tools the token can use, with their input schemas', async () => {
    const full = await h.get('/v1/tools');
    expect(full.status).toBe(200);
    expect(full.body.data.map((t: { name: string }) => t.name).sort()).toEqual([...METHOD_NAMES].sort());
    expect(full.body.count).toBe(METHOD_NAMES.length);
    const create = full.body.data.find((t: { name: string }) => t.name === 'create_site');
    expect(create).toMatchObject({ scope: 'sites:create', write: true, destructive: false });
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['workspaceId', 'prompt']));

    const readonly = await h.get('/v1/tools', { token: DEMO_TOKENS.readonly });
    const names: string[] = readonly.body.data.map((t: { name: string }) => t.name);
    expect(names).toContain('list_sites');
    expect(names).not.toContain('create_site');
    for (const n of names)
      expect(['workspaces:read', 'sites:read', 'chat:read']).toContain(METHODS[n as keyof typeof METHODS].scope);
  });
});

describe('GET /v1/openapi.json', () => {
  it('is OpenAPI 3.1 that a standard validator accepts, covering every method of the registry', async () => {
    const res = await send(h.emu.baseUrl, '/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body.data;
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const name of METHOD_NAMES) expect(doc.paths[`/v1/${name}`].post.operationId).toBe(name);
    for (const path of ['/v1/token', '/v1/tools', '/v1/openapi.json']) expect(doc.paths[path].get).toBeDefined();
    const create = doc.paths['/v1/create_site'].post;
    expect(create['x-scope']).toBe('sites:create');
    expect(create.requestBody.content['application/json'].schema.properties.prompt.maxLength).toBe(500_000);
    expect(doc.paths['/v1/restore_storage_backup'].post['x-destructive']).toBe(true);
  });
});
