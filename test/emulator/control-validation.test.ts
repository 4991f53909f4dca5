// Every control request is validated before anything changes (docs/emulator.md "Security"). For
// every route of the control API that changes something, hostile bodies — wrong types, absurd
// numbers (advanceMs 1e16, a time past year 9999), empty, nested, each field alone and beside a
// valid one — are sent; a refusal must leave the state, the clock, the budget and the faults as
// they were, and whatever was accepted must leave the emulator working (its state, tokens and
// clock readable, a method answered). Then the case the attack found, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { controlRoutes } from '../../src/emulator/control.js';
import type { Emulator } from '../../src/emulator/emulator.js';
import { DEMO_TOKENS, DEMO_USER_ID } from '../../src/emulator/index.js';
import { type Harness, harness } from './helpers.js';

const FIELDS = [
  'seed',
  'name',
  'scopes',
  'workspaces',
  'expiresAt',
  'expiresInSeconds',
  'revoked',
  'userId',
  'token',
  '_id',
  'ownerId',
  'plan',
  'siteLimit',
  'credits',
  'spendingLimit',
  'creditsSpent',
  'role',
  'permissions',
  'remove',
  'count',
  'outcomes',
  'slowSeconds',
  'outcome',
  'callsPerMinute',
  'speed',
  'advanceMs',
  'method',
  'status',
  'message',
  'times',
  'when',
  'latencyMs',
  'drop',
  'durationMs',
  'domain',
  'dkimStatus',
  'verified',
  'setupMissing',
  'state',
  'pages',
  'components',
  'settings',
  'label',
  'files',
  'path',
  'content',
  'size',
  'visibility',
  'createdAt',
  'status',
  'backupId',
  'at',
];
const HOSTILE: unknown[] = [
  null,
  -1,
  1e16,
  8.64e15 + 1,
  Number.MAX_VALUE,
  1.5,
  '',
  'x'.repeat(300),
  [],
  [null],
  {},
  { a: { b: [1] } },
  true,
];
/** A valid-looking first field, so that a later bad one finds the first already applied if nothing is validated first. */
const VALID_FIRST: Array<[string, unknown]> = [
  ['name', 'Changed first'],
  ['credits', 5],
  ['speed', 2],
  ['scopes', ['sites:read']],
  ['role', 'editor'],
  ['message', 'changed first'],
  ['revoked', true],
];

let h: Harness;
let emu: Emulator;
const clock = new FakeClock();

/** A small world (an unseeded emulator with one of each thing), so that each check is quick. */
let baseline: Emulator['state'];
const params: Record<string, string> = {};

beforeAll(async () => {
  h = await harness({ port: 0, clock, seed: false });
  emu = h.emu.emulator;
  emu.state.core.users.push({ _id: DEMO_USER_ID, name: 'Dana', email: 'dana@example.com' });
  await h.control('POST', 'workspaces', { _id: 'ws_small', name: 'Small' });
  params.id = params.workspaceId = 'ws_small';
  params.siteId = (await h.control('POST', 'workspaces/ws_small/sites', { name: 'Small site' })).body.data[0]._id;
  params.ref = (await h.control('POST', 'tokens', { name: 'small' })).body.data._id;
  const domain = await h.control('POST', `sites/${params.siteId}/email-domains`, { domain: 'mail.small.example' });
  params.domainId = domain.body.data.domainId ?? domain.body.data.id ?? domain.body.data._id ?? 'x';
  baseline = structuredClone(emu.state);
});

/** Back to the small world after an accepted change. */
function restore(): void {
  emu.state = structuredClone(baseline);
  emu.tokensChanged();
  emu.faults.clear();
  emu.budgets.limit = 240;
  if (emu.clock.speed !== 1) emu.clock.setSpeed(1);
}
afterAll(() => h.close());

/** What a refusal must not change. */
function fingerprint(): string {
  return JSON.stringify({
    state: emu.state,
    now: emu.clock.now(),
    speed: emu.clock.speed,
    budget: emu.budgets.limit,
    faults: emu.faults.list(),
  });
}

/** The emulator still works: its state, tokens, workspaces and clock read (as the routes answer them). */
async function stillWorks(): Promise<string | undefined> {
  const reads = ['state', 'tokens', 'workspaces', 'clock', 'faults', 'budget'];
  for (const route of controlRoutes(emu).filter((r) => r.verb === 'GET' && reads.includes(r.path))) {
    try {
      JSON.stringify(await route.run({ params: {}, query: new URLSearchParams(), body: {}, emu }));
    } catch (err) {
      return `GET /_emulator/${route.path} fails: ${(err as Error).message}`;
    }
  }
  return undefined;
}

describe('every control route refuses before it changes anything', () => {
  it('holds for hostile bodies on every route that changes something', async () => {
    const routes = controlRoutes(emu).filter((r) => r.verb !== 'GET' && r.path !== 'reset');
    expect(routes.length).toBeGreaterThan(15);
    const bodies: Record<string, unknown>[] = [];
    for (const field of FIELDS)
      for (const value of HOSTILE) {
        bodies.push({ [field]: value });
        // Beside a valid field: the bad one must stop the good one from being applied too.
        if (value === null || value === '' || value === 1e16)
          for (const [k, v] of VALID_FIRST) if (k !== field) bodies.push({ [k]: v, [field]: value });
      }
    const broken: string[] = [];
    let refused = 0;
    let before = fingerprint();
    for (const route of routes) {
      const p = Object.fromEntries(
        route.path
          .split('/')
          .filter((s) => s.startsWith(':'))
          .map((s) => [s.slice(1), params[s.slice(1)] ?? 'x']),
      );
      for (const body of bodies) {
        let failed: unknown;
        try {
          await route.run({ params: p, query: new URLSearchParams(), body, emu });
        } catch (err) {
          failed = err;
        }
        const what = `${route.verb} ${route.path} ${JSON.stringify(body)}`;
        const after = fingerprint();
        if (failed !== undefined) {
          refused++;
          if (after !== before) broken.push(`${what}: refused (${(failed as Error).message}) after changing something`);
        } else if (after !== before) {
          const problem = await stillWorks();
          if (problem) broken.push(`${what}: accepted, then ${problem}`);
        }
        if (broken.filter((b) => b.startsWith(`${route.verb} ${route.path} `)).length >= 2) break;
        // A change (asked for, or reported): back to the small world for the next body.
        if (after !== before) {
          restore();
          before = fingerprint();
        }
      }
    }
    expect(broken).toEqual([]);
    expect(refused).toBeGreaterThan(1000);
  }, 120_000);
});

describe('POST /_emulator/clock {"advanceMs":1e16}', () => {
  it('is refused, changes nothing, and the emulator goes on working', async () => {
    emu.reset();
    const before = emu.clock.now();
    for (const body of [{ advanceMs: 1e16 }, { speed: 2, advanceMs: 1e16 }, { advanceMs: Number.MAX_VALUE }]) {
      const res = await h.control('POST', 'clock', body);
      expect(res.status).toBe(400);
      expect(emu.clock.now()).toBe(before);
      expect(emu.clock.speed).toBe(1);
    }
    expect((await h.call('list_workspaces', {}, { token: DEMO_TOKENS.full })).status).toBe(200);
    expect((await h.control('POST', 'reset', {})).status).toBe(200);
    expect((await h.control('GET', 'state')).status).toBe(200);
    expect((await h.call('list_sites', { workspaceId: 'ws_demo' }, { token: DEMO_TOKENS.full })).status).toBe(200);
  });
});
