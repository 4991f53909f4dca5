// The service model over the shape fuzzer (`--shapes random:SEED`, src/emulator/shapes/random/):
// for several seeds, a build, a plan and a question followed piped. Everything the emulator sent
// as text, tasks or files is printed, or said unread once; the replies printed with --job answer
// exactly as against the default shapes; no stack trace. The seed is in every message, so a
// failure can be replayed (`SITEBUILDER_EMULATOR_SHAPES=random:N`). The fuzzer's own journeys
// are in the tests of the emulator's shapes; these are the model's.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import type { RandomShapes } from '../../../src/emulator/shapes/random/index.js';
import { chatEnv, ndjson, runCli, shellWords } from './helpers.js';

const SEEDS = [1, 2, 3, 5, 7, 10, 17, 29];
const SITE = 'site_bakery';
let emu: RunningEmulator | undefined;
afterEach(() => emu?.close());

const NOTE = (what: string) => `note\tthe service sent ${what} sitebuilder cannot read; --json shows it`;

describe.each(SEEDS)('random:%i', (seed) => {
  it('a build: every text, task and file sent is printed or said unread; no stack trace', async () => {
    const clock = new FakeClock();
    emu = await startEmulator({ port: 0, clock, shapes: `random:${seed}` as never });
    const sent = (emu.emulator.shapes as RandomShapes).sent;
    sent.clear();
    const env = chatEnv(emu);
    const r = await runCli(['chat', SITE, 'Add an about page and a contact page', '--yes'], { env, clock });
    const where = `random:${seed}\n${r.stdout}\n${r.stderr}`;
    expect(r.code, where).toBe(0);
    expect(r.stderr, where).not.toMatch(/\n\s+at /);
    const items = sent.items.filter((i) => i.kind !== 'message');
    expect(items.length, where).toBeGreaterThan(0);
    const said = (what: string) => r.stdout.includes(NOTE(what));
    const text = items
      .filter((i) => i.kind === 'text')
      .map((i) => i.text)
      .join('');
    for (const line of text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean))
      expect(r.stdout.includes(line) || said('text'), `${where}\ntext: ${line}`).toBe(true);
    for (const t of items.filter((i) => i.kind === 'todo'))
      expect(r.stdout.includes(t.text) || said('a task list'), `${where}\ntask: ${t.text}`).toBe(true);
    for (const f of items.filter((i) => i.kind === 'file'))
      expect(r.stdout.includes(f.text) || said('a file change'), `${where}\nfile: ${f.text}`).toBe(true);
  });

  it('the printed replies answer as against the default shapes: a plan approved, a question chosen', async () => {
    const clock = new FakeClock();
    emu = await startEmulator({ port: 0, clock, shapes: `random:${seed}` as never });
    const env = chatEnv(emu);
    const plan = await runCli(['chat', SITE, '--plan', 'Add a gallery page with photos', '--yes'], { env, clock });
    expect(plan.code, `random:${seed} ${plan.stderr}`).toBe(11);
    const approve = /^ {4}(sitebuilder chat .* --approve --job \S+)$/m.exec(plan.stderr)![1];
    const approved = await runCli([...shellWords(approve).slice(1), '--no-follow'], { env, clock });
    expect(approved.code, `random:${seed} ${approved.stderr}`).toBe(0);
    const sends = emu.control.log({ method: 'send_message' });
    expect(sends.at(-1)!.args, `random:${seed}`).toMatchObject({ prompt: 'Approve the plan and build it.' });
    clock.advance(300_000);
    // The approval ran to its end unseen from here: --yes, and the question it then asks.
    const asked = ndjson((await runCli(['chat', SITE, 'make it nice', '--yes', '--json'], { env, clock })).stdout);
    const end = asked.at(-1);
    expect(end, `random:${seed}`).toMatchObject({ type: 'end', outcome: 'question' });
    const choose = end.pending.answer.find((c: string) => c.includes('--choose 2'));
    const chosen = await runCli([...shellWords(choose).slice(1), '--no-follow'], { env, clock });
    expect(chosen.code, `random:${seed} ${chosen.stderr}`).toBe(0);
    expect(emu.control.log({ method: 'send_message' }).at(-1)!.args, `random:${seed}`).toMatchObject({
      prompt: end.pending.options[1],
    });
  });
});
