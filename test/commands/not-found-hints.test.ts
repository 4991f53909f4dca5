// A 404 points at the right thing (docs/guide.md "Errors"): a job the service did not find
// points to the site's runs, not to the sites; a site id it did not find, in any command, gets
// "did you mean" from the sites the token reaches (the lone `chat SITE` rule, for every call),
// with the same exit code, nothing sent in its place, and the ids in --json's error document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { run } from '../helpers/run.js';

let emu: RunningEmulator;
const clock = new FakeClock();
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clock });
  env = { SITEBUILDER_BASE_URL: emu.baseUrl, SITEBUILDER_TOKEN: DEMO_TOKENS.full };
});
afterAll(() => emu.close());

const cli = (argv: string[]) => run(argv, { env, clock });
const writes = () => emu.control.log().filter((e) => !/^(list_|get_)/.test(e.method ?? '') && e.status !== 404).length;

describe('a 404', () => {
  it.each([
    [['job', 'watch', 'site_bakery', 'job_999'], 'site_bakery'],
    [['job', 'cancel', 'site_portfolio', '--job', 'job_999', '--yes'], 'site_portfolio'],
  ])('for a job points to the site’s runs: %j', async (argv, site) => {
    const r = await cli(argv);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`\`sitebuilder message list ${site}\` shows the site’s runs.`);
    expect(r.stderr).not.toContain('site list');
  });

  it('for a storage restore points to the restore id printed when it started, not to the sites', async () => {
    const before = writes();
    const r = await cli(['storage-restore', 'status', 'site_bakery', 'srs_999999']);
    expect(r.code, r.stderr).toBe(1);
    const said = r.stderr.replace(/\s+/g, ' ');
    expect(said).toContain('`sitebuilder storage-restore status site_bakery RESTORE_ID` takes the restore id printed');
    expect(said).toContain('when `sitebuilder storage-restore site_bakery` started the restore.');
    expect(said).not.toContain('site list');
    expect(said).not.toContain('Did you mean');
    expect(writes()).toBe(before);
  });

  it.each([
    [['publish', 'site_bakry']],
    [['chat', 'site_bakry', 'Add an about page', '--yes']],
    [['job', 'watch', 'site_bakry', 'job_000001']],
    [['storage-restore', 'status', 'site_bakry', 'srs_000001']],
  ])('for a site names the closest ids the token reaches: %j', async (argv) => {
    const before = writes();
    const r = await cli(argv);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^error: No site has the id "site_bakry"\. Did you mean site_bakery\? \(request \S+\)\n$/);
    expect(writes()).toBe(before);
  });

  it('for a site says the ids in --json, and the site list where no id is close', async () => {
    const json = await cli(['publish', 'site_bakry', '--json']);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stderr).error;
    expect(doc.suggestions).toEqual(['site_bakery']);
    expect(doc.status).toBe(404);
    const far = await cli(['publish', 'site_qqqqqqqqq']);
    expect(far.code).toBe(1);
    expect(far.stderr).toContain('`sitebuilder site list` shows the sites this token reaches.');
    expect(far.stderr).not.toContain('Did you mean');
  });
});
