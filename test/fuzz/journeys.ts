// The journeys the fuzzer runs: what a person or a script does with the CLI, step by step, the
// same against the default shapes and against a seed. A step that needs what an earlier one
// printed (the --approve command, the uploaded file's address) takes it from that output as a
// person would copy it, and falls back to the run's id as the service names it (the emulator's
// truth) when nothing was printed, as someone would copy it from the editor.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printedCommands } from './printed.js';
import type { CliRun, World } from './world.js';

export const SITE = 'site_bakery';

export interface StepOptions {
  /** The step's stdout is a value a script uses (an address): printed as the service sent it, or empty. */
  stdoutContract?: boolean;
}

export interface JourneyContext {
  world: World;
  step(argv: string[], options?: StepOptions): Promise<CliRun>;
}

export interface Journey {
  name: string;
  /**
   * The journey can be completed safely: the seed's writes must equal the default's, not only be
   * fewer; unless the seed takes other arguments for one of these methods than we send.
   */
  complete?: boolean;
  writesWith?: string[];
  run(j: JourneyContext): Promise<void>;
}

/** The printed command that holds a flag, as words without `sitebuilder`; else the fallback. */
function printedWith(run: CliRun, flag: string, fallback: string[]): string[] {
  const found = printedCommands(`${run.stdout}\n${run.stderr}`).find(
    (p) => p.words?.includes(flag) && !p.words.some((w) => w.includes('…')),
  );
  return found?.words ? found.words.slice(1) : fallback;
}

const lastJob = (w: World) => String(w.chat(SITE).lastJobId);

function logoFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'sb-fuzz-up-')), 'logo.png');
  writeFileSync(file, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  return file;
}

export const JOURNEYS: Journey[] = [
  {
    name: 'chat a message and follow it',
    async run({ step }) {
      await step(['chat', SITE, 'Add an about page, a contact page and a gallery page']);
    },
  },
  {
    name: 'plan, then the printed --approve --job J',
    async run({ world, step }) {
      const plan = await step(['chat', SITE, '--plan', 'Add a menu page with prices and photos']);
      await step(printedWith(plan, '--approve', ['chat', SITE, '--approve', '--job', lastJob(world)]));
    },
  },
  {
    name: 'plan, a teammate approves it, then the printed --approve --job J',
    async run({ world, step }) {
      const plan = await step(['chat', SITE, '--plan', 'Add a menu page with prices and photos']);
      const approve = printedWith(plan, '--approve', ['chat', SITE, '--approve', '--job', lastJob(world)]);
      await world.api('send_message', { projectId: SITE, prompt: 'Approve the plan and build it.', mode: 'build' });
      world.clock.advance(120_000);
      await step(approve);
    },
  },
  {
    name: 'question, then the printed --choose --job J',
    async run({ world, step }) {
      const asked = await step(['chat', SITE, 'make it nice']);
      const choose = printedWith(asked, '--choose', ['chat', SITE, '--choose', '1', '--job', lastJob(world)]);
      await step(choose.map((w) => (w === 'N' ? '1' : w)));
    },
  },
  {
    name: 'question, then --answer --job J',
    async run({ world, step }) {
      await step(['chat', SITE, 'make it nice']);
      await step(['chat', SITE, '--answer', 'A small business site', '--job', lastJob(world)]);
    },
  },
  {
    name: 'job cancel --job J on a run that just started',
    complete: true,
    writesWith: ['cancel_job'],
    async run({ world, step }) {
      await step(['chat', SITE, 'Add a blog page with three posts', '--no-follow']);
      await step(['job', 'cancel', SITE, '--job', lastJob(world)]);
    },
  },
  {
    name: 'upload, then the address in a message',
    async run({ step }) {
      const up = await step(['upload', SITE, logoFile()], { stdoutContract: true });
      const address = up.stdout.trim();
      // LOGO=$(sitebuilder upload …) && sitebuilder chat … "Use $LOGO as the logo"
      if (up.code === 0) await step(['chat', SITE, `Use ${address} as the logo on every page`, '--no-follow']);
    },
  },
  {
    name: 'publish',
    complete: true,
    writesWith: ['publish_site'],
    async run({ step }) {
      await step(['publish', SITE], { stdoutContract: true });
    },
  },
  {
    name: 'a message, then message list',
    async run({ step }) {
      await step(['chat', SITE, 'Add a team page with photos of the bakers']);
      await step(['message', 'list', SITE]);
    },
  },
  {
    name: 'queue list and queue edit',
    async run({ world, step }) {
      await step(['chat', SITE, 'Add every page you can think of #long', '--no-follow']);
      await step(['chat', SITE, 'Then add a contact page', '--no-follow']);
      await step(['queue', 'list', SITE]);
      const item = world.chat(SITE).queue[0]?.queueItemId;
      if (item) await step(['queue', 'edit', SITE, item, 'Then add a contact page with a map']);
    },
  },
  {
    name: 'backup lists',
    async run({ step }) {
      await step(['backup', 'list', SITE]);
      await step(['code-backup', 'list', SITE]);
      await step(['storage-backup', 'list', SITE]);
    },
  },
];
