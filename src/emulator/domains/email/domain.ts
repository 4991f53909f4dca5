// Email domains: get_site_email_settings and restart_site_email_domain_verification, with
// every refusal the service documents, word for word. Our choices where the service leaves it
// open (docs/emulator.md): the record fields (domain, verified, paused, dkimRecords,
// ownershipRecord), the statuses of the refusals, and that a restart leaves the domain
// `pending` until the mail provider gives up after 72 emulated hours (then `failed`).
import { LIMITS } from '../../../api/limits.js';
import { refuse } from '../../refusal.js';
import type { SiteRecord } from '../../state.js';
import { defineDomain } from '../../types.js';
import { emailControl } from './control.js';
import {
  addEmailDomain,
  advance,
  dkimRecords,
  domainView,
  EMAIL_DOMAIN,
  type DkimStatus,
  type EmailSlice,
  emailSlice,
  HOUR,
  paused,
  verifiedAnywhere,
} from './state.js';
import { quotaWait, waitWords } from '../shared/listing.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

const domainsOf = (emu: EmulatorHost, site: SiteRecord) => emailSlice(emu).domains.filter((d) => d.siteId === site._id);

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
  // The refusals, in the service's words; the checks run from the most settled state down.
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
    // A quota, not the minute's budget: no Retry-After header (the service puts that on the budget's 429 only).
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

/** Seeded domains: every dkimStatus, a name verified on another site, a missing setup, a paused domain. */
function seedDomains(emu: EmulatorHost): void {
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
