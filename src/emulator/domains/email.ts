// Email domains: get_site_email_settings and restart_site_email_domain_verification, with
// every refusal of the spec word for word. Our choices where the spec says "not shown"
// (README "Emulator"): the record fields (domain, verified, paused, dkimRecords,
// ownershipRecord), the statuses of the refusals, and that a restart leaves the domain
// `pending` until the mail provider gives up after 72 emulated hours (then `failed`).
import { createHash } from 'node:crypto';
import { LIMITS } from '../../api/limits.js';
import type { Emulator } from '../emulator.js';
import { refuse } from '../refusal.js';
import type { SiteRecord } from '../state.js';
import { defineDomain, type CallContext, type HandlerResult } from '../types.js';
import { emailControl } from './email-control.js';
import { quotaWait, waitWords } from './listing.js';

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
const HOUR = 3_600_000;
/** A restarted domain stays pending this long, then the provider gives up: failed. */
export const PENDING_GIVES_UP_MS = 72 * HOUR;

export const emailSlice = (emu: Emulator) => emu.slice<EmailSlice>(EMAIL_DOMAIN);

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
function advance(emu: Emulator, d: EmailDomainRecord): EmailDomainRecord {
  if (d.dkimStatus === 'pending' && d.restartedAt !== null && emu.clock.now() - d.restartedAt >= PENDING_GIVES_UP_MS)
    d.dkimStatus = 'failed';
  return d;
}

const paused = (emu: Emulator, d: EmailDomainRecord) =>
  emu.workspace(emu.site(d.siteId)?.workspaceId ?? '')?.plan === 'free';
const verifiedAnywhere = (emu: Emulator, d: EmailDomainRecord) =>
  emailSlice(emu).domains.some((x) => x.domain === d.domain && x.verified);

export function canRestart(emu: Emulator, d: EmailDomainRecord): boolean {
  return (
    !paused(emu, d) &&
    !verifiedAnywhere(emu, d) &&
    (d.setupMissing || d.dkimStatus === 'failed' || d.dkimStatus === 'not_started')
  );
}

export function domainView(emu: Emulator, d: EmailDomainRecord) {
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

const domainsOf = (emu: Emulator, site: SiteRecord) => emailSlice(emu).domains.filter((d) => d.siteId === site._id);

function getSiteEmailSettings(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const items = domainsOf(call.emu, site).map((d) => domainView(call.emu, d));
  const sender = items.find((d) => d.verified)?.domain;
  return {
    data: {
      projectId: site._id,
      senderAddress: sender ? `hello@${sender}` : `no-reply@${site._id}.sites.sitebuilder.example`,
      emailDomains: { items, count: items.length },
    },
    message: `${items.length} email domain${items.length === 1 ? '' : 's'}.`,
  };
}

function restartVerification(call: CallContext): HandlerResult {
  const { emu } = call;
  const site = call.requireSite(call.args.projectId);
  const ws = call.workspaceOf(site);
  const d = domainsOf(emu, site).find((x) => x.domainId === call.args.domainId);
  if (!d)
    refuse(404, `No email domain has the id "${call.args.domainId}" on this site.`, {
      reason: 'not-found',
      domainId: call.args.domainId,
    });
  const domain = advance(emu, d!);
  call.requirePermission(ws, 'manageDomains');
  // The refusals, in the spec's words; the checks run from the most settled state down.
  if (paused(emu, domain))
    refuse(403, 'Email domains are paused until the workspace is on a paid plan again!', {
      reason: 'email-domains-paused',
      plan: ws.plan,
    });
  if (verifiedAnywhere(emu, domain))
    refuse(422, 'This domain is verified, so there is nothing to restart!', {
      reason: 'domain-verified',
      domain: domain.domain,
    });
  if (!domain.setupMissing && domain.dkimStatus === 'success') {
    refuse(422, "The mail provider already confirmed this domain's sending records, so there is nothing to restart!", {
      reason: 'dkim-confirmed',
      dkimStatus: domain.dkimStatus,
    });
  }
  if (!domain.setupMissing && (domain.dkimStatus === 'pending' || domain.dkimStatus === 'temporary_failure')) {
    refuse(409, 'The mail provider is still verifying this domain, so there is nothing to restart!', {
      reason: 'dkim-verifying',
      dkimStatus: domain.dkimStatus,
    });
  }
  const times = (emailSlice(emu).restarts[ws._id] ??= []);
  const wait = quotaWait(times, call.now(), HOUR, LIMITS.emailRestartsPerWorkspaceHour);
  if (wait !== null) {
    // A quota, not the minute's budget: no Retry-After header (the spec puts that on the budget's 429 only).
    refuse(
      429,
      `This workspace has restarted email domain verification too many times this hour. Try again in ${waitWords(wait)}.`,
      {
        reason: 'restart-limit-reached',
        limit: LIMITS.emailRestartsPerWorkspaceHour,
        retryAfterSeconds: Math.ceil(wait / 1000),
      },
    );
  }
  times.push(call.now());
  const before = dkimRecords(domain);
  domain.setupVersion++;
  domain.setupMissing = false;
  domain.dkimStatus = 'pending';
  domain.restartedAt = call.now();
  const view = domainView(emu, domain);
  return {
    data: {
      ...view,
      previousDkimRecords: before,
      restartsLeftThisHour: LIMITS.emailRestartsPerWorkspaceHour - times.length,
    },
    message: `Verification of ${domain.domain} was set up again. Replace the three DKIM records at your DNS host with the new values; the ownership record stays.`,
  };
}

/** Adds a domain to a site (seed and control API). */
export function addEmailDomain(
  emu: Emulator,
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

/** Seeded domains: every dkimStatus, a name verified on another site, a missing setup, a paused domain. */
function seedDomains(emu: Emulator): void {
  const add = (
    siteId: string,
    domainId: string,
    domain: string,
    dkimStatus: DkimStatus,
    extra: { verified?: boolean; setupMissing?: boolean } = {},
  ) => {
    if (emu.site(siteId)) addEmailDomain(emu, { siteId, domainId, domain, dkimStatus, ...extra });
  };
  add('site_bakery', 'edom_bakery_mail', 'mail.sunrisebakery.example', 'success', { verified: true });
  add('site_bakery', 'edom_bakery_news', 'news.sunrisebakery.example', 'failed');
  add('site_portfolio', 'edom_portfolio', 'analima.example', 'not_started');
  add('site_portfolio', 'edom_portfolio_shared', 'mail.sunrisebakery.example', 'not_started');
  add('site_docs', 'edom_docs', 'docs.acme.example', 'pending');
  add('site_docs', 'edom_docs_eu', 'eu.docs.acme.example', 'temporary_failure');
  add('site_docs', 'edom_docs_updates', 'updates.acme.example', 'not_started', { setupMissing: true });
  add('site_blog', 'edom_blog', 'weekendblog.example', 'failed');
}

export const emailDomain = defineDomain<EmailSlice>({
  name: EMAIL_DOMAIN,
  init: () => ({ domains: [], restarts: {} }),
  seed: seedDomains,
  handlers: {
    get_site_email_settings: getSiteEmailSettings,
    restart_site_email_domain_verification: restartVerification,
  },
  control: emailControl,
});
