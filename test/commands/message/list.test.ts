// `sitebuilder message list` in-process against the emulator: the history, newest first, a page
// at a time or all of it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { spelled } from '../../helpers/shapes.js';
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

const chat = (args: string[]) => runCli(['chat', SITE, ...args], { env, clock });

describe('message list', () => {
  it('message list pages backwards; --all --json is one array', async () => {
    for (let i = 0; i < 3; i++) await chat([`Change number ${i} to the home page`]);
    const all = JSON.parse((await runCli(['message', 'list', SITE, '--all', '--json'], { env, clock })).stdout);
    expect(all.length).toBe(8);
    // Newest first: the agent's answer to the last message.
    const agent = spelled('list_messages', 'items.role', 'agent');
    expect(all[0].role).toBe(agent);
    expect(all[0].createdAt >= all[1].createdAt).toBe(true);
    const two = await runCli(['message', 'list', SITE, '--limit', '2'], { env, clock });
    expect(two.stdout.trim().split('\n')).toHaveLength(2);
    expect(two.stdout.split('\n')[0].split('\t')[1]).toBe(agent);
  });
});
