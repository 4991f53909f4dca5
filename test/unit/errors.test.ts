import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, ExitCode } from '../../src/errors.js';

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
