// One reply per question (docs/real-service.md "One reply per question"): every reply to a run's
// question or plan carries an Idempotency-Key derived from the site, the run and what waits on
// it, so two replies sent at once from two shells or machines make one run. The service answers
// a repeat with the same words from the first result (the same run) and refuses other words with
// 422. A reply the service refused (nothing ran) is counted in runs.json, and the next one from
// here takes the next key: a refusal is never answered again from the first result.
import { createHash } from 'node:crypto';
import { rememberRun } from '../../../config/runs.js';
import type { Context } from '../../../context.js';
import type { ApiError } from '../../../errors.js';
import { sanitizeInline } from '../../../io/sanitize.js';
import { sb } from '../../../io/shell.js';
import { runsOfSite, runsScopeOf } from '../run/known-runs.js';

export interface ReplyTo {
  jobId: string;
  kind: 'question' | 'plan';
}

/** The reply's key: the same in every shell for the same run and what waits on it. */
export function replyKey(ctx: Context, site: string, to: ReplyTo): string {
  const tries = runsOfSite(ctx, site).find((r) => r.jobId === to.jobId)?.replyTries ?? 0;
  const hash = createHash('sha256')
    .update(JSON.stringify([site, to.jobId, to.kind]))
    .digest('base64url');
  return `sitebuilder-reply-${hash.slice(0, 32)}${tries ? `-${tries}` : ''}`;
}

/**
 * A refused reply: a 422 is the key taken by another reply with other words (said so); another
 * refusal of the request itself (4xx but a 409 in flight) moves the next reply here to a new key.
 */
export async function replyRefused(ctx: Context, site: string, to: ReplyTo, err: ApiError): Promise<ApiError> {
  if (err.status === 422)
    return err.withSentence(
      `Another reply to the ${to.kind} of run ${sanitizeInline(to.jobId)} was sent already, with other words (from another shell or machine), so this one was not sent. See what it started with: ${sb('message list', site)}`,
    );
  if (err.status < 400 || err.status >= 500 || err.status === 409) return err;
  const known = runsOfSite(ctx, site).find((r) => r.jobId === to.jobId);
  try {
    // A run not known here is kept as the oldest, so that it is never taken for the latest.
    await rememberRun(ctx.config, runsScopeOf(ctx), site, {
      jobId: to.jobId,
      startedAt: known?.startedAt ?? 0,
      replyTries: (known?.replyTries ?? 0) + 1,
    });
  } catch {
    // Without it, the next reply from here is answered with this refusal again; said by the service.
  }
  return err;
}
