// The email domains' records and how they read: the slice, the DNS records a domain asks
// for, whether it can be restarted, and its view as get_site_email_settings answers it. Shared
// by the methods (domain.ts) and the control routes (control.ts).
import { createHash } from 'node:crypto';
import type { EmulatorHost } from '../../host.js';

export const DKIM_STATUSES = ['failed', 'not_started', 'pending', 'temporary_failure', 'success'] as const;
export type DkimStatus = (typeof DKIM_STATUSES)[number];

export interface DnsRecord {
  type: 'CNAME' | 'TXT';
  host: string;
  value: string;
}

export interface EmailDomainRecord {
  domainId: string;
  siteId: string;
  domain: string;
  dkimStatus: DkimStatus;
  /** The domain passed verification (on this site); a verified name cannot be restarted on any site. */
  verified: boolean;
  /** The provider lost the setup: no DKIM records until a restart. */
  setupMissing: boolean;
  /** Bumped by each restart; the DKIM selectors and values derive from it. */
  setupVersion: number;
  createdAt: number;
  restartedAt: number | null;
}

export interface EmailSlice {
  domains: EmailDomainRecord[];
  /** workspaceId → when each restart happened (emulated ms), for the 10-an-hour limit. */
  restarts: Record<string, number[]>;
}

export const EMAIL_DOMAIN = 'email';
export const HOUR = 3_600_000;
/** A restarted domain stays pending this long, then the provider gives up: failed. */
export const PENDING_GIVES_UP_MS = 72 * HOUR;

export const emailSlice = (emu: EmulatorHost) => emu.slice<EmailSlice>(EMAIL_DOMAIN);

const digest = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

export function dkimRecords(d: EmailDomainRecord): DnsRecord[] {
  if (d.setupMissing) return [];
  return [1, 2, 3].map((n) => {
    const selector = `sb${d.setupVersion}k${n}`;
    return {
      type: 'CNAME',
      host: `${selector}._domainkey.${d.domain}`,
      value: `${selector}.${digest(`${d.domainId}:${d.setupVersion}:${n}`, 16)}.dkim.mailprovider.example`,
    };
  });
}

export function ownershipRecord(d: EmailDomainRecord): DnsRecord {
  return {
    type: 'TXT',
    host: `_sitebuilder.${d.domain}`,
    value: `sitebuilder-domain-verification=${digest(`${d.siteId}:${d.domain}`, 24)}`,
  };
}

/** The mail provider gives up on a restarted domain left pending too long. */
export function advance(emu: EmulatorHost, d: EmailDomainRecord): EmailDomainRecord {
  if (d.dkimStatus === 'pending' && d.restartedAt !== null && emu.clock.now() - d.restartedAt >= PENDING_GIVES_UP_MS)
    d.dkimStatus = 'failed';
  return d;
}

export const paused = (emu: EmulatorHost, d: EmailDomainRecord) =>
  emu.workspace(emu.site(d.siteId)?.workspaceId ?? '')?.plan === 'free';
export const verifiedAnywhere = (emu: EmulatorHost, d: EmailDomainRecord) =>
  emailSlice(emu).domains.some((x) => x.domain === d.domain && x.verified);

export function canRestart(emu: EmulatorHost, d: EmailDomainRecord): boolean {
  return (
    !paused(emu, d) &&
    !verifiedAnywhere(emu, d) &&
    (d.setupMissing || d.dkimStatus === 'failed' || d.dkimStatus === 'not_started')
  );
}

export function domainView(emu: EmulatorHost, d: EmailDomainRecord) {
  advance(emu, d);
  return {
    domainId: d.domainId,
    domain: d.domain,
    dkimStatus: d.dkimStatus,
    canRestart: canRestart(emu, d),
    verified: d.verified,
    paused: paused(emu, d),
    setup: d.setupMissing ? 'missing' : 'done',
    dkimRecords: dkimRecords(d),
    ownershipRecord: ownershipRecord(d),
    createdAt: emu.iso(d.createdAt),
    restartedAt: d.restartedAt === null ? null : emu.iso(d.restartedAt),
  };
}

/** Adds a domain to a site (seed and control API). */
export function addEmailDomain(
  emu: EmulatorHost,
  input: {
    siteId: string;
    domain: string;
    domainId?: string;
    dkimStatus?: DkimStatus;
    verified?: boolean;
    setupMissing?: boolean;
  },
): EmailDomainRecord {
  const record: EmailDomainRecord = {
    domainId: input.domainId ?? emu.newId('edom'),
    siteId: input.siteId,
    domain: input.domain,
    dkimStatus: input.dkimStatus ?? 'not_started',
    verified: input.verified ?? false,
    setupMissing: input.setupMissing ?? false,
    setupVersion: 1,
    createdAt: emu.clock.now(),
    restartedAt: null,
  };
  emailSlice(emu).domains.push(record);
  return record;
}
