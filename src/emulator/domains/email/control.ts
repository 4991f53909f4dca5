// Control routes of the email domain (under /_emulator/), to put domains in any state:
//   GET    email-domains                          every domain, as get_site_email_settings shows it
//   POST   sites/:siteId/email-domains {"domain", "dkimStatus"?, "verified"?, "setupMissing"?}
//   POST   email-domains/:domainId {"dkimStatus"?, "verified"?, "setupMissing"?}
//   DELETE workspaces/:workspaceId/email-restarts  forgets the workspace's restarts of the hour
import { EmulatorRefusal } from '../../refusal.js';
import type { ControlRoute } from '../../types.js';
import {
  addEmailDomain,
  DKIM_STATUSES,
  domainView,
  emailSlice,
  type DkimStatus,
  type EmailDomainRecord,
} from './state.js';
import type { EmulatorHost } from '../../host.js';

function bad(message: string): never {
  throw new EmulatorRefusal(400, message);
}

function changes(
  body: Record<string, unknown>,
): Partial<Pick<EmailDomainRecord, 'dkimStatus' | 'verified' | 'setupMissing'>> {
  const out: Partial<Pick<EmailDomainRecord, 'dkimStatus' | 'verified' | 'setupMissing'>> = {};
  if (body.dkimStatus !== undefined) {
    if (!(DKIM_STATUSES as readonly unknown[]).includes(body.dkimStatus))
      bad(`\`dkimStatus\` must be one of: ${DKIM_STATUSES.join(', ')}.`);
    out.dkimStatus = body.dkimStatus as DkimStatus;
  }
  for (const k of ['verified', 'setupMissing'] as const) {
    if (body[k] === undefined) continue;
    if (typeof body[k] !== 'boolean') bad(`\`${k}\` must be true or false.`);
    out[k] = body[k] as boolean;
  }
  return out;
}

function find(emu: EmulatorHost, domainId: string): EmailDomainRecord {
  const d = emailSlice(emu).domains.find((x) => x.domainId === domainId);
  if (!d) throw new EmulatorRefusal(404, `No email domain ${domainId}.`);
  return d;
}

export const emailControl: ControlRoute[] = [
  {
    verb: 'GET',
    path: 'email-domains',
    run: ({ emu }) => emailSlice(emu).domains.map((d) => ({ siteId: d.siteId, ...domainView(emu, d) })),
  },
  {
    verb: 'POST',
    path: 'sites/:siteId/email-domains',
    run: ({ emu, params, body }) => {
      emu.siteOr404(params.siteId);
      if (typeof body.domain !== 'string' || !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(body.domain))
        bad('`domain` must be a domain name such as mail.example.com.');
      const d = addEmailDomain(emu, { siteId: params.siteId, domain: body.domain.toLowerCase(), ...changes(body) });
      return { siteId: d.siteId, ...domainView(emu, d) };
    },
  },
  {
    verb: 'POST',
    path: 'email-domains/:domainId',
    run: ({ emu, params, body }) => {
      const d = Object.assign(find(emu, params.domainId), changes(body));
      return { siteId: d.siteId, ...domainView(emu, d) };
    },
  },
  {
    verb: 'DELETE',
    path: 'workspaces/:workspaceId/email-restarts',
    run: ({ emu, params }) => {
      delete emailSlice(emu).restarts[params.workspaceId];
      return { workspaceId: params.workspaceId, restartsThisHour: 0 };
    },
  },
];
