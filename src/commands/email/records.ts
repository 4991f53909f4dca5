// Email domains in words: their status and the next step. The records are read by the model
// (src/service/email.ts); whether a restart is offered rests on `canRestart` and `dkimStatus`,
// which the service shows, and the service decides when asked.
import { sb } from '../../io/shell.js';
import { dnsRecordsOf, type DnsRecord, emailDomainsOf, readEmailDomain } from '../../service/email.js';

export { dnsRecordsOf, type DnsRecord, emailDomainsOf };

export const domainIdOf = (d: unknown): string => readEmailDomain(d).domainId;
export const domainNameOf = (d: unknown): string => readEmailDomain(d).name;

const STATUS_WORDS: Record<string, string> = {
  success: 'sending records confirmed by the mail provider',
  pending: 'the mail provider is checking the records',
  temporary_failure: 'the mail provider hit a temporary failure and keeps checking',
  failed: 'verification failed',
  not_started: 'verification not started',
};

export const isPausedDomain = (domain: unknown): boolean => readEmailDomain(domain).paused;
export const isVerifiedDomain = (domain: unknown): boolean => readEmailDomain(domain).verified;

/** The state of a domain in words, and what to do next when there is something to do. */
export function statusOf(domain: unknown, site: string): { words: string; next?: string } {
  const d = readEmailDomain(domain);
  const status = d.dkimStatus ?? 'unknown';
  if (d.paused) return { words: 'paused until the workspace is on a paid plan again' };
  if (d.verified) return { words: 'verified; nothing to do' };
  const words = STATUS_WORDS[status] ?? `status ${status}`;
  // The command that restarts it names the domain: without its id, none is printed.
  if ((status === 'failed' || status === 'not_started') && d.canRestart === true && d.domainId) {
    return {
      words,
      next: `check the records at your DNS host, or restart: ${sb('email restart', site, d.domainId)}`,
    };
  }
  if (status === 'not_started') return { words, next: 'set the records below at your DNS host' };
  return { words };
}

/** The status and the next step in one sentence (the `statusText` of --json). */
export function statusInWords(domain: unknown, site: string): string {
  const { words, next } = statusOf(domain, site);
  return next ? `${words}; ${next}` : words;
}
