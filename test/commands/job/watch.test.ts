// `sitebuilder job watch` in-process against the emulator, for a run that does not exist (the
// runs it follows are in test/commands/chat/).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { tempConfigDir } from '../../helpers/run.js';
import { chatEnv, knowLatestRun, runCli } from '../chat/helpers.js';

const SITE = 'site_bakery';
const clock = new FakeClock();
let emu: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
});
afterAll(() => emu.close());
// A fresh emulator state, and a user who has chatted with the site from this machine before
// (its latest run is known here), as in test/commands/chat/chat-command.test.ts.
beforeEach(async () => {
  emu.control.reset();
  const configDir = tempConfigDir();
  env = chatEnv(emu, configDir);
  await knowLatestRun(emu, configDir, SITE);
});

describe('job watch', () => {
  it('job watch of a run that does not exist leaves stdout empty (plain and --json)', async () => {
    for (const extra of [[], ['--json']]) {
      const r = await runCli(['job', 'watch', 'site_docs', 'job_999', ...extra], { env, clock });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('job_999');
    }
  });
});
