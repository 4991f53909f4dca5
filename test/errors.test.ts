import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, ExitCode } from '../src/errors.js';
import { type RefusalInfo, refusalSentence, refusalSubject } from '../src/api/errors.js';

describe('ApiError.withSentence', () => {
  it('tells the same refusal in another sentence, with the request id, the same exit code and the details added later', () => {
    const err = new AuthError(
      { status: 403, method: 'publish_site', message: 'Missing scope', requestId: 'req_1' },
      'x',
    );
    Object.assign(err.details, { idempotencyKey: 'k-1', outcome: 'unknown' });
    const told = err.withSentence('Publishing needs the publish:write scope.');
    expect(told).toBeInstanceOf(AuthError);
    expect(told.exitCode).toBe(ExitCode.auth);
    expect(told.message).toBe('Publishing needs the publish:write scope. (request req_1)');
    expect(told.details).toMatchObject({ status: 403, requestId: 'req_1', idempotencyKey: 'k-1', outcome: 'unknown' });
  });

  it('keeps its own details where both have one', () => {
    const err = new ApiError({ status: 500, method: 'send_message', message: 'boom' }, 'x');
    const told = err.withSentence('Failed.');
    expect(told.details.serviceMessage).toBe('boom');
    expect(told.message).toBe('Failed.');
  });
});

describe('refusalSentence', () => {
  it('points an unknown site or workspace to the command that lists them', () => {
    const says = (message: string) =>
      refusalSentence({ status: 404, method: 'get_site', message, requestId: 'req_9' } as RefusalInfo);
    expect(says('No site has the id "site_nope".')).toContain('`sitebuilder site list` shows the sites');
    expect(says('Workspace not found')).toContain('`sitebuilder workspace list` shows the workspaces');
    expect(says('Backup not found')).toContain('Check the id.');
    expect(says('Backup not found')).not.toContain('sitebuilder');
  });

  it('points a job the service did not find to the site’s runs, whatever else the sentence names', () => {
    const says = (message: string, site?: string) =>
      refusalSentence({ status: 404, method: 'get_job', message, site } as RefusalInfo);
    for (const message of [
      'No job has the id "job_999" on this site.',
      'Job job_9 not found for site s_1',
      'No such run',
    ]) {
      expect(says(message, 'site_bakery')).toContain('`sitebuilder message list site_bakery` shows the site’s runs.');
      expect(says(message, 'site_bakery')).not.toContain('site list');
    }
    expect(says('No site has the id "s_1"; its jobs cannot be read.', 's_1')).toContain('`sitebuilder site list`');
    expect(says('No scheduled job has the id "cron_1" on this site.', 's_1')).toMatch(/Check the id\.$/);
    expect(refusalSubject('No site has the id "job_1" in workspace ws_1.')).toBe('site');
  });
});
