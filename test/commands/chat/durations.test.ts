// Durations as measured (issue: "job watch of a cancelled 5 s run says Cancelled in 0s"): a run
// followed from its start says how long it took; one attached to says how long it was watched;
// one that had ended before it was attached to says no time at all.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { tempConfigDir } from '../../helpers/run.js';
import { chatEnv, knowLatestRun, runCli } from './helpers.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  const configDir = tempConfigDir();
  env = chatEnv(emu, configDir);
  await knowLatestRun(emu, configDir, SITE);
});
afterAll(() => emu.close());

const cli = (argv: string[], tty = false) => runCli(argv, { env, clock, tty });

it('chat says how long the run took; job watch of a run that went on says how long it watched it', async () => {
  const chat = await cli(['chat', SITE, 'Add an about page and a contact page'], true);
  expect(chat.code).toBe(0);
  const took = Number(/^✓ Done in (\d+)s · \d+ credits$/m.exec(chat.stdout)?.[1]);
  expect(took).toBeGreaterThanOrEqual(5);

  const started = await cli(['chat', SITE, 'Add a gallery page and a blog page', '--no-follow']);
  clock.advance(3_000);
  const watch = await cli(['job', 'watch', SITE, started.stdout.trim()], true);
  expect(watch.code).toBe(0);
  const watched = Number(/^✓ Done after (\d+)s of watching · \d+ credits$/m.exec(watch.stdout)?.[1]);
  expect(watched).toBeGreaterThan(0);
});

it('job watch of a run cancelled 5 s in, after it ended: no duration it did not measure', async () => {
  const started = await cli(['chat', SITE, 'Add every page you can think of #long', '--no-follow']);
  clock.advance(5_000);
  expect((await cli(['job', 'cancel', SITE])).code).toBe(0);
  clock.advance(5_000);
  const watch = await cli(['job', 'watch', SITE, started.stdout.trim()], true);
  expect(watch.stdout).toMatch(/^■ Cancelled · \d+ credits?; what the agent already wrote stays$/m);
  expect(watch.stdout).not.toMatch(/in 0s/);
});

it('job watch at 40 columns: what the run wrote so far wraps between words, as a followed run does', async () => {
  const started = await cli([
    'chat',
    SITE,
    'Add an events page also add prices and a faq page with answers',
    '--no-follow',
    // The run before ended unseen from here (cancelled, then attached to): --yes sends anyway.
    '--yes',
  ]);
  clock.advance(3_000);
  const watch = await runCli(['job', 'watch', SITE, started.stdout.trim()], { env, clock, tty: true, columns: 40 });
  expect(watch.code).toBe(0);
  const lines = watch.stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split('\n');
  expect(lines.join(' ')).toContain("I'll update");
  // An address is never cut: wider than the terminal, it stands alone on its row (the terminal folds it).
  for (const line of lines) if (/\S\s+\S/.test(line.trim())) expect(line.length, line).toBeLessThanOrEqual(40);
  expect(lines.some((l) => /^\(?https:\/\/developer\.mozilla\.org\/\S+$/.test(l))).toBe(true);
});
