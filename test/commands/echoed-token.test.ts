// The token echoed back by the service never reaches an output (docs/reliability.md): the
// single echoes, against a scripted server: a 400 that quotes the Authorization header, a 401
// that quotes the token, `api` printing an echoed body and headers. Every command against a
// service that echoes the token into every string it answers is planted-output.test.ts's (the
// same hostile answers carry the planted control characters).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { run } from '../helpers/run.js';
import { envelope, type ScriptServer, startScriptServer } from '../helpers/script-server.js';
import { leaks } from '../helpers/token-echo.js';

let server: ScriptServer;

beforeAll(async () => {
  server = await startScriptServer();
});
afterAll(() => server.close());

// No emulator: the same answers in either project (vitest.config.ts runs it in the default one).
describe('single echoes', () => {
  const token = DEMO_TOKENS.full;
  const env = () => ({ SITEBUILDER_BASE_URL: server.baseUrl, SITEBUILDER_TOKEN: token });

  it('a 400 quoting the Authorization header, in every mode', async () => {
    for (const extra of [[], ['--json'], ['--debug']]) {
      server.answerFor = () => ({
        status: 400,
        headers: { 'x-request-id': `req_${token}` },
        body: envelope({ header: `Bearer ${token}` }, 400, `Bad header: Authorization: Bearer ${token}`),
      });
      for (const tty of [false, true]) {
        const res = await run(['workspace', 'list', ...extra], { env: env(), tty });
        expect(res.code).toBe(1);
        expect(leaks(res.stdout + res.stderr)).toEqual([]);
        expect(res.stderr).toContain('Bearer sbt_demo_…4086');
        if (extra[0] === '--json') expect(JSON.parse(res.stderr).error.message).toContain('sbt_demo_…4086');
      }
    }
  });

  it('a 401 quoting the token', async () => {
    server.answerFor = () => ({ status: 401, body: envelope(null, 401, `The token ${token} has expired.`) });
    const res = await run(['site', 'list', '--workspace', 'ws_demo', '--json'], { env: env() });
    expect(res.code).toBe(4);
    expect(leaks(res.stdout + res.stderr)).toEqual([]);
    expect(res.stderr).toContain('The token sbt_demo_…4086 has expired.');
  });

  it('api prints an echoed body and its headers masked', async () => {
    server.answerFor = () => ({
      headers: { 'x-request-id': token, 'x-echo': `Bearer ${token}` },
      raw: JSON.stringify(envelope({ name: token, [token]: `\\u0073${token.slice(1)}` })).replace(
        `"\\\\u0073`,
        '"\\u0073',
      ),
      contentType: 'application/json',
    });
    for (const extra of [[], ['--include'], ['--json']]) {
      const res = await run(['api', 'list_workspaces', ...extra], { env: env() });
      expect(res.code, res.stderr).toBe(0);
      expect(leaks(res.stdout + res.stderr)).toEqual([]);
      expect(res.stdout).toContain('sbt_demo_…4086');
    }
  });
});
