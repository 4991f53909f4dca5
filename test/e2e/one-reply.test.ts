// One reply per question (docs/real-service.md "One reply per question"): two processes of the
// built binary reply to the same plan at once, as two shells would. Both passed the check of
// what waits before either was answered; their send_message carries the same Idempotency-Key
// (from the site, the run and what waits), so the emulator, as the service's reference says,
// answers the second from the first (a repeat in flight waits, then replays) or refuses other
// words with 422: one run, never two. The tests run side by side, each with an emulator of its
// own (the fault that holds the first reply is met by its own replies only).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type RunningEmulator } from '../../src/emulator/index.js';
import { ownEmulators } from '../helpers/own-emulators.js';
import { tempConfigDir } from '../helpers/run.js';
import { shapesEnv } from '../helpers/shapes.js';

const BIN = resolve(import.meta.dirname, '../../bin/sitebuilder.js');
const SITE = 'site_bakery';
const SPEED = 20;

interface Done {
  code: number;
  stdout: string;
  stderr: string;
}

const emulator = ownEmulators({ speed: SPEED });

function sb(emu: RunningEmulator, args: string[], configDir: string): Promise<Done> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: '/nonexistent',
          NO_COLOR: '1',
          SITEBUILDER_CONFIG_DIR: configDir,
          SITEBUILDER_BASE_URL: emu.baseUrl,
          SITEBUILDER_TOKEN: DEMO_TOKENS.full,
          SITEBUILDER_CLOCK_SPEED: String(SPEED),
          ...shapesEnv(),
        },
        encoding: 'utf8',
      },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** A plan waits on the site, seen to its end from `config`; its run's id. */
async function planWaits(emu: RunningEmulator, config: string): Promise<string> {
  const asked = await sb(emu, ['chat', SITE, '--plan', 'Add a gallery page with photos', '--yes', '--json'], config);
  expect(asked.code, asked.stderr).toBe(11);
  return JSON.parse(asked.stdout.trim().split('\n').at(-1)!).jobId;
}

/** The send_message calls since `seq`, as the emulator logged them. */
const sendsSince = (emu: RunningEmulator, seq: number) => emu.control.log({ method: 'send_message', since: seq });

describe.concurrent('two replies to one plan at once make one run', () => {
  it('the same reply from two shells: one run; the second is answered from the first', async () => {
    const emu = await emulator();
    const config = tempConfigDir();
    const jobId = await planWaits(emu, config);
    const since = emu.control.log().at(-1)!.seq;
    // The first reply is held a while before it runs, so the second arrives while it is in flight.
    emu.control.addFault({ method: 'send_message', latencyMs: 3000 });
    const reply = ['chat', SITE, '--approve', '--job', jobId, '--no-follow'];
    const [a, b] = await Promise.all([sb(emu, reply, config), sb(emu, reply, config)]);
    expect([a.code, b.code], `${a.stderr}\n${b.stderr}`).toEqual([0, 0]);
    expect(a.stdout).toBe(b.stdout);
    const sends = sendsSince(emu, since);
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sends.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(sends[0].idempotencyKey).toMatch(/^sitebuilder-reply-/);
    // One run: a single send was answered by the handler; the others were refused in flight or replayed.
    expect(sends.filter((s) => s.status === 200 && !s.replayed)).toHaveLength(1);
  }, 60_000);

  it('two different replies (approve, revise) at once: one run; the other is refused, saying why', async () => {
    const emu = await emulator();
    const config = tempConfigDir();
    const jobId = await planWaits(emu, config);
    const since = emu.control.log().at(-1)!.seq;
    emu.control.addFault({ method: 'send_message', latencyMs: 3000 });
    const [a, b] = await Promise.all([
      sb(emu, ['chat', SITE, '--approve', '--job', jobId, '--no-follow'], config),
      sb(emu, ['chat', SITE, '--revise', 'Also a price list', '--job', jobId, '--no-follow'], config),
    ]);
    const codes = [a.code, b.code].sort();
    expect(codes[0], `${a.stderr}\n${b.stderr}`).toBe(0);
    expect(codes[1]).not.toBe(0);
    const refused = a.code === 0 ? b : a;
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/Another reply to the plan of run \S+ was sent already|still waits on site_bakery/);
    const ran = sendsSince(emu, since).filter((s) => s.status === 200 && !s.replayed);
    expect(ran).toHaveLength(1);
  }, 60_000);

  it('a reply the service refused moves the next reply from this machine to a new key', async () => {
    const emu = await emulator();
    const config = tempConfigDir();
    const jobId = await planWaits(emu, config);
    const since = emu.control.log().at(-1)!.seq;
    // A refusal is an answer the service keeps under the key: the same key again would get it back.
    emu.control.addFault({ method: 'send_message', status: 400, message: 'refused for the test' });
    const reply = ['chat', SITE, '--approve', '--job', jobId, '--no-follow'];
    const refused = await sb(emu, reply, config);
    expect(refused.code, refused.stderr).toBe(1);
    const again = await sb(emu, reply, config);
    expect(again.code, again.stderr).toBe(0);
    const keys = sendsSince(emu, since).map((s) => s.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^sitebuilder-reply-/);
    expect(keys[1]).toBe(`${keys[0]}-1`);
  }, 60_000);
});
