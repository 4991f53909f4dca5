// The fuzzer's own checks can fail: printed commands are found and split as a shell would, and
// each invariant reports a journey that breaks it (a different write, text dropped without a
// word, a printed command that writes where the default's does not, a template that sends).
import { describe, expect, it } from 'vitest';
import { commands, type JourneyRecord, printedIn, shown, type Step, templates, within } from './invariants.js';
import { isPlaceholder, printedCommands, shellWords } from './printed.js';
import { World } from './world.js';

describe('printed commands', () => {
  it('are found on lines of their own, between backticks and at the end of a sentence, split as a shell would', () => {
    const out = [
      'Approve the plan with:',
      '  sitebuilder chat site_bakery --revise \'a "b" c\' --job job_000010',
      'error: … add --yes; or run `sitebuilder chat site_bakery --approve --job job_000010` instead.',
      'See how the latest run ended with: sitebuilder job watch site_bakery job_000011',
      'sitebuilder site list | head -1',
    ].join('\n');
    expect(printedCommands(out).map((p) => p.words)).toEqual([
      ['sitebuilder', 'chat', 'site_bakery', '--approve', '--job', 'job_000010'],
      ['sitebuilder', 'chat', 'site_bakery', '--revise', 'a "b" c', '--job', 'job_000010'],
      ['sitebuilder', 'job', 'watch', 'site_bakery', 'job_000011'],
      null,
    ]);
    expect(shellWords(`a "x\\"y" 'it'\\''s' b\\ c`)).toEqual(['a', 'x"y', "it's", 'b c']);
    expect(['…', '<id>', 'JOB', 'N'].every(isPlaceholder)).toBe(true);
    expect(['job_000010', 'Nice', 'site_bakery'].some(isPlaceholder)).toBe(false);
  });
});

describe('the invariants report what breaks them', () => {
  const w = (method: string, args: unknown) => ({ method, args });

  it('writes: fewer are allowed, other ones are not', () => {
    const all = [w('send_message', { prompt: 'a' }), w('send_message', { prompt: 'b' })];
    expect(within([all[1]], all)).toBe(true);
    expect(within([all[0], all[0]], all)).toBe(false);
    expect(within([w('send_message', { prompt: 'c' })], all)).toBe(false);
  });

  it('shown: text printed against the default shapes must be printed against the seed, or said unread', async () => {
    expect(printedIn('text the plan: 1. update index.html', 'the plan:\n1. Update')).toBe(true);
    const world = await World.start('random:16');
    const step = async (argv: string[]) => {
      const from = world.random!.sent.items.length;
      const before = new Set(world.jobIds());
      const run = await world.cli(argv);
      return {
        run,
        sent: [from, world.random!.sent.items.length],
        started: new Set(world.jobIds().filter((j) => !before.has(j))),
        contract: false,
        printed: [],
      } as Step;
    };
    const r: JourneyRecord = {
      world,
      steps: [await step(['chat', 'site_bakery', 'Add a team page with photos'])],
      since: 0,
      tried: [],
    };
    const d: JourneyRecord = { ...r, steps: [{ ...r.steps[0] }] };
    expect(shown(d, r)).toEqual([]);
    const silent = { ...r.steps[0], run: { ...r.steps[0].run, stdout: 'job\tsite_bakery\tX\n' } };
    expect(shown(d, { ...r, steps: [silent] }).length).toBeGreaterThan(0);
    const said = {
      ...silent,
      run: { ...silent.run, stderr: 'the service sent text sitebuilder cannot read; --json shows it' },
    };
    expect(shown(d, { ...r, steps: [said] })).toEqual([]);
    await world.close();
  });

  it('commands: a printed command that writes where the same one against the default shapes does not', async () => {
    const [dw, rw] = [await World.start('default'), await World.start('default')];
    // Against the "default" side a publish already runs, so the printed publish is refused there.
    await dw.api('publish_site', { projectId: 'site_bakery' });
    const record = async (world: World, output: string): Promise<JourneyRecord> => {
      const printed = printedCommands(output);
      const step: Step = {
        run: { argv: ['x'], code: 0, stdout: output, stderr: '' },
        sent: [0, 0],
        started: new Set(),
        contract: false,
        printed,
        fork: await world.fork(),
      };
      return { world, steps: [step], since: 0, tried: [] };
    };
    const d = await record(dw, 'Publish it with:\n  sitebuilder publish site_bakery --no-wait\n');
    const r = await record(rw, 'Publish it with:\n  sitebuilder publish site_bakery --no-wait\n');
    expect((await commands(d, r))[0]).toMatch(
      /^`sitebuilder publish site_bakery --no-wait` exited 0 after sending publish_site/,
    );
    expect(await commands(r, r)).toEqual([]);
    // A template run as printed must send nothing and exit 2 (the CLI refuses `SITE` and `…`
    // alone as values, so the broken template here holds `…` inside a word).
    const t = await record(rw, 'Read it with:\n  sitebuilder message list site_…\n');
    expect((await templates(t))[0]).toMatch(/^`sitebuilder message list site_…` exited [^2]/);
    const refused = await record(rw, 'Read it with:\n  sitebuilder message list SITE\n');
    expect(await templates(refused)).toEqual([]);
    for (const x of [d, r, t, refused]) await x.steps[0].fork!.close();
    await dw.close();
    await rw.close();
  });
});
