// What publish says about one site: shared by the one-site form (publish.ts)
// and the batch form (batch.ts).
import type { ApiError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { flag, sb } from '../../io/shell.js';
import { activePublishOf, errorText, type PublishRecord } from '../../service/publish.js';

export const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** A publish already running (409 with data.activePublish) says how to follow it. */
export function publishRefusal(err: ApiError, siteId: string): ApiError {
  const active = activePublishOf(err.data);
  if (err.status !== 409 || active === undefined) return err;
  return err.withSentence(
    `A publish of ${siteId} is already running (${sanitizeInline(active)}); follow it with \`${sb('publish status', siteId, flag('--wait'))}\`, then publish again.`,
  );
}

/** --timeout reached: the publish goes on. */
export const stillRunningSentence = (siteId: string, elapsed: string): string =>
  `The publish of ${siteId} is still running after ${elapsed} (--timeout); it goes on. Check it with \`${sb('publish status', siteId)}\`.`;

/** A publish that finished without being live (failed, or no status said so), and where to look. */
export function notLiveSentence(siteId: string, record: PublishRecord): string {
  const error = errorText(record.error);
  const why = error ? `: ${sanitizeInline(error)}` : '';
  const sentence =
    record.status === null
      ? `The publish of ${siteId} finished, but the service’s answer gave no status, so it is not known to be live${why}`
      : `The publish of ${siteId} ended with status ${sanitizeInline(record.status)}${why}`;
  return `${sentence}${/[.!?]$/.test(sentence) ? '' : '.'} See \`${sb('publish logs', siteId)}\`.`;
}

export const liveWithoutAddress = (siteId: string): string =>
  `The publish of ${siteId} is live, but sitebuilder cannot read an address in the service’s answer, so none is printed; \`${sb('publish status', siteId, flag('--json'))}\` shows every field the service sent.`;
