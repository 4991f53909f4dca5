// A run remembered here that the service does not have (an emulator started afresh on the same
// port, no --state): stale memory is never a reason to fail, nor to believe nothing waits. It is
// forgotten, said in one line, and the decision is the one with no run known here: a terminal
// asks, a script needs --yes (exit 5 without). The memory is kept per address too: an emulator
// on another port never meets the runs of this one (src/config/runs.ts, latest-run.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/clock.js';
import { knownRuns, runsScope } from '../../../src/config/runs.js';
import { ConfigStore } from '../../../src/config/store.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { tempConfigDir } from '../../helpers/run.js';
import { chatEnv, ndjson, runCli, ScriptedPrompter } from './helpers.js';

const SITE = 'site_recipes';
const NO_RUN = 'Cannot tell whether a question or plan waits on site_recipes';

describe('runs remembered here that the service does not have', () => {
  const clock = new FakeClock();
  const running: RunningEmulator[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((e) => e.close()));
  });
  const start = async (port = 0) => {
    const emu = await startEmulator({ port, clock });
    running.push(emu);
    return emu;
  };
  /** Stops the emulator and starts a fresh one on the same port: the same address, none of its runs. */
  const restart = async (emu: RunningEmulator) => {
    const port = Number(new URL(emu.baseUrl).port);
    await emu.close();
    running.splice(running.indexOf(emu), 1);
    return start(port);
  };
  const chat = (env: Record<string, string>, args: string[], o: Partial<Parameters<typeof runCli>[1]> = {}) =>
    runCli(['chat', SITE, ...args], { env, clock, ...o });
  const remembered = (env: Record<string, string>, emu: RunningEmulator) =>
    knownRuns(new ConfigStore(env.SITEBUILDER_CONFIG_DIR), runsScope('default', emu.baseUrl), SITE).map((r) => r.jobId);
  const warning = (jobId: string, emu: RunningEmulator) =>
    `warning: Run ${jobId}, remembered here, is not on the service at ${emu.baseUrl} (get_job: 404); forgetting the runs remembered for ${SITE}.\n`;

  /** A question left unanswered on the first emulator, then a fresh one on its port. */
  async function askThenRestart() {
    const first = await start();
    const env = chatEnv(first);
    const asked = await chat(env, ['Add a tiny page #ask', '--yes', '--json']);
    expect(asked.code).toBe(10);
    const jobId: string = ndjson(asked.stdout).at(-1).jobId;
    expect(remembered(env, first)).toContain(jobId);
    const second = await restart(first);
    expect(second.baseUrl).toBe(first.baseUrl);
    return { env, jobId, emu: second };
  }

  it('a script: the stale run is forgotten, said once; a message exits 5, --yes sends it', async () => {
    const { env, jobId, emu } = await askThenRestart();
    const r = await chat(env, ['Add a menu page']);
    expect(r.code).toBe(5);
    expect(r.stderr.startsWith(warning(jobId, emu))).toBe(true);
    expect(r.stderr).toContain(NO_RUN);
    expect(r.stderr).toContain('no run of it known here is on the service');
    expect(r.stderr).not.toContain('No job has the id');
    expect(emu.control.log().map((e) => e.method)).toEqual(['list_messages', 'get_job']);
    expect(remembered(env, emu)).toEqual([]);
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(0);
    // Forgotten: the next command asks nothing of that run, and --yes sends.
    emu.control.clearLog();
    const yes = await chat(env, ['Add a menu page', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.stderr).not.toContain('warning:');
    expect(yes.stderr).toContain('Sending it anyway (--yes).');
    expect(
      emu.control
        .log()
        .map((e) => e.method)
        .slice(0, 2),
    ).toEqual(['list_messages', 'send_message']);
  });

  it('a reply flag: exit 2 naming --job, as with no run known; nothing sent', async () => {
    const { env, jobId, emu } = await askThenRestart();
    const r = await chat(env, ['--answer', 'A blog']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `${warning(jobId, emu)}error: Cannot tell which run of site_recipes is the latest (no run of it known here is on the service), so --answer sent nothing; name the run it answers with --job JOB (printed with the question or plan).\n`,
    );
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(0);
  });

  it('a conversation on a terminal: said once, then the first message is confirmed', async () => {
    const { env, jobId, emu } = await askThenRestart();
    const prompter = new ScriptedPrompter(['Add a menu page please', 'yes', '/exit']);
    const r = await chat(env, [], { tty: true, prompter });
    expect(r.code).toBe(0);
    // Folded at the terminal's width: read as one line.
    const said = r.stderr.replace(/\n {2}/g, ' ');
    expect(said).toContain(warning(jobId, emu));
    expect(said).toContain('(no run of it known here is on the service); if one does, your first message is taken');
    expect(r.stderr).not.toContain('No job has the id');
    expect(r.prompts).toEqual(['You', 'Send it?', 'You']);
    expect(emu.control.log({ method: 'send_message' }).map((e) => (e.args as any).prompt)).toEqual([
      'Add a menu page please',
    ]);
  });

  it('a run seen to succeed, then a fresh emulator: no "records not there" about a run it never had', async () => {
    const first = await start();
    const env = chatEnv(first);
    const done = await chat(env, ['Add an about page with our story', '--yes', '--json']);
    expect(done.code).toBe(0);
    const jobId: string = ndjson(done.stdout).at(-1).jobId;
    const emu = await restart(first);
    const r = await chat(env, ['Add a menu page']);
    expect(r.code).toBe(5);
    expect(r.stderr.startsWith(warning(jobId, emu))).toBe(true);
    expect(r.stderr).not.toMatch(/not there when run|happened since/);
    // One list_messages and one get_job: the cost before a message stays within its bound.
    expect(emu.control.log().map((e) => e.method)).toEqual(['list_messages', 'get_job']);
  });

  it('--job naming a run the service does not have is still its 404: the user’s word is checked', async () => {
    const { env, jobId, emu } = await askThenRestart();
    const r = await chat(env, ['--answer', 'A blog', '--job', jobId]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`No job has the id "${jobId}"`);
    expect(emu.control.log({ method: 'send_message' })).toHaveLength(0);
  });

  it('another address, the same profile: none of the runs of the first is met', async () => {
    const first = await start();
    const second = await start();
    const configDir = tempConfigDir();
    const asked = await chat(chatEnv(first, configDir), ['Add a tiny page #ask', '--yes']);
    expect(asked.code).toBe(10);
    const r = await chat(chatEnv(second, configDir), ['Add a menu page']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no run of it was started or followed from here');
    expect(r.stderr).not.toContain('warning:');
    // Not one call about a run of the other emulator.
    expect(second.control.log().map((e) => e.method)).toEqual(['list_messages']);
  });
});
