// Email domain records as the service sends them (the service names three DKIM records and one
// ownership record but not their fields): read the known names, then the obvious alternatives.
import { asRecord, pick, pickString, type AnyRecord } from '../../io/records.js';
import { sb } from '../../io/shell.js';

export interface DnsRecord {
  /** 'DKIM 1'…'DKIM 3', 'Ownership'. */
  label: string;
  kind: 'dkim' | 'ownership';
  type: string;
  host: string;
  value: string;
}

export const domainIdOf = (d: unknown) => pickString(d, 'domainId', '_id', 'id') ?? '';
export const domainNameOf = (d: unknown) => pickString(d, 'domain', 'name', 'hostname') ?? '';

function toDns(r: unknown, label: string, kind: DnsRecord['kind']): DnsRecord {
  return {
    label,
    kind,
    type: pickString(r, 'type', 'recordType') ?? '',
    host: pickString(r, 'host', 'name', 'hostname') ?? '',
    value: pickString(r, 'value', 'data', 'content', 'target') ?? '',
  };
}

export function dnsRecordsOf(domain: unknown): DnsRecord[] {
  const d = asRecord(domain);
  const records = asRecord(d.records);
  const dkim = pick(d, 'dkimRecords', 'dkim') ?? pick(records, 'dkim') ?? [];
  const ownership = pick(d, 'ownershipRecord', 'ownership', 'verificationRecord') ?? pick(records, 'ownership');
  const out = (Array.isArray(dkim) ? dkim : []).map((r, i) => toDns(r, `DKIM ${i + 1}`, 'dkim'));
  if (ownership) out.push(toDns(ownership, 'Ownership', 'ownership'));
  return out;
}

/** The domains listed under emailDomains.items of get_site_email_settings (or close to it). */
export function emailDomainsOf(data: unknown): AnyRecord[] {
  const d = asRecord(data);
  const holder = pick(d, 'emailDomains', 'domains') ?? pick(asRecord(d.settings), 'emailDomains');
  const items = Array.isArray(holder) ? holder : pick(holder, 'items');
  return Array.isArray(items) ? items.map(asRecord) : [];
}

const STATUS_WORDS: Record<string, string> = {
  success: 'sending records confirmed by the mail provider',
  pending: 'the mail provider is checking the records',
  temporary_failure: 'the mail provider hit a temporary failure and keeps checking',
  failed: 'verification failed',
  not_started: 'verification not started',
};

/** A domain's own status word, besides the shown dkimStatus (not shown: the usual names are read). */
const stateWord = (domain: unknown): string =>
  (pickString(domain, 'status', 'state', 'verificationStatus') ?? '').toLowerCase();

/** Paused (a workspace off its paid plan): `paused` or `isPaused` true, or a status word saying so. */
export const isPausedDomain = (domain: unknown): boolean =>
  pick(domain, 'paused', 'isPaused') === true || stateWord(domain) === 'paused';

/** Verified: `verified` or `isVerified` true, or a status word saying so. */
export const isVerifiedDomain = (domain: unknown): boolean =>
  pick(domain, 'verified', 'isVerified') === true || stateWord(domain) === 'verified';

/**
 * The state of a domain in words, and what to do next when there is something to do. Words
 * only: whether a restart is offered rests on `canRestart` and `dkimStatus`, which the service
 * shows, and the service decides when asked.
 */
export function statusOf(domain: unknown, site: string): { words: string; next?: string } {
  const status = pickString(domain, 'dkimStatus') ?? 'unknown';
  if (isPausedDomain(domain)) return { words: 'paused until the workspace is on a paid plan again' };
  if (isVerifiedDomain(domain)) return { words: 'verified; nothing to do' };
  const words = STATUS_WORDS[status] ?? `status ${status}`;
  const canRestart = pick(domain, 'canRestart') === true;
  if ((status === 'failed' || status === 'not_started') && canRestart) {
    return {
      words,
      next: `check the records at your DNS host, or restart: ${sb('email restart', site, domainIdOf(domain))}`,
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
