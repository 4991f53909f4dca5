// `sitebuilder queue` in-process against the emulator: messages waiting behind a run, edited
// (with the version the service checks), moved and removed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { DEMO_TOKENS, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { fieldName } from '../../helpers/shapes.js';
import { tempConfigDir } from '../../helpers/run.js';
import { ScriptedPrompter as StepPrompter } from '../../helpers/scripted-prompter.js';
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
const calls = (method: string) => emu.control.log({ method });

describe('queue edit, move and remove', () => {
  it('queue edit checks the version, move reorders, remove takes a message out', async () => {
    await chat(['Add every page you can think of #long', '--no-follow']);
    const ids = [];
    for (const m of ['First waiting message here', 'Second waiting message here']) {
      ids.push(JSON.parse((await chat([m, '--no-follow', '--json'])).stdout).queueItemId);
    }
    const edit = await runCli(['queue', 'edit', SITE, ids[0], 'Rewritten first message'], { env, clock });
    expect(edit.code).toBe(0);
    expect(edit.stdout).toBe(`${ids[0]}\t2\n`);
    // On a terminal without a text: asked, starting from the current one; its version is the one sent.
    const asker = new StepPrompter([{ input: 'Rewritten on a terminal' }]);
    const asked = await runCli(['queue', 'edit', SITE, ids[0]], { env, clock, tty: true, prompter: asker });
    expect(asked.code).toBe(0);
    expect(asker.initials).toEqual(['Rewritten first message']);
    expect(asked.stdout).toBe(`${ids[0]}\t3\n`);
    const stale = await runCli(['queue', 'edit', SITE, ids[0], 'Again', '--expected-version', '1'], { env, clock });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/changed since you read it.*Nothing was overwritten/);
    const move = await runCli(['queue', 'move', SITE, ids[1], '--first'], { env, clock });
    expect(move.stdout).toBe(`1\t${ids[1]}\n2\t${ids[0]}\n`);
    const unconfirmed = await runCli(['queue', 'remove', SITE, ids[0]], { env, clock });
    expect(unconfirmed.code).toBe(5);
    expect(unconfirmed.stderr).toContain('pass --yes to confirm. Nothing was changed.');
    expect(calls('remove_queued_message')).toHaveLength(0);
    const rm = await runCli(['queue', 'remove', SITE, ids[0], '--json', '--yes'], { env, clock });
    // --json is the service's data, in its shape.
    expect(JSON.parse(rm.stdout)).toMatchObject({ [fieldName('remove_queued_message', 'waiting')]: 1 });
    const json = JSON.parse((await runCli(['queue', 'list', SITE, '--json'], { env, clock })).stdout);
    expect(json[fieldName('list_queued_messages', 'items')].map((i: any) => i.queueItemId)).toEqual([ids[1]]);
    const noScope = await runCli(['queue', 'remove', SITE, ids[1], '--yes'], {
      env: { ...env, SITEBUILDER_TOKEN: DEMO_TOKENS.readonly },
      clock,
    });
    expect(noScope.code).toBe(4);
  });
});
