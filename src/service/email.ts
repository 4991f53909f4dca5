// get_site_email_settings and restart_site_email_domain_verification. Stated: `domainId`,
// `dkimStatus`, `canRestart`, three DKIM records and one ownership record, listed under
// `emailDomains.items`. Not shown: the domain's name, its other fields, and the fields of a DNS
// record. Whether a restart is offered rests on the stated fields only; the service decides.
import { field, isRecord, locate, recordOf, resource } from './read.js';
import { asId, asText } from './values.js';

export const EMAIL_DOMAIN = resource('email domain', 'get_site_email_settings data.emailDomains.items[]', {
  domainId: field('its id', ['domainId', '_id', 'id'], asId, ['domainId']),
  dkimStatus: field('its DKIM status', ['dkimStatus'], asText, ['dkimStatus']),
  canRestart: field('whether it can be restarted', ['canRestart'], (v) => (typeof v === 'boolean' ? v : undefined), [
    'canRestart',
  ]),
  name: field('its name', ['domain', 'name', 'hostname'], asText),
  dkim: field('its DKIM records', ['dkimRecords', 'dkim', 'records.dkim'], (v) => (Array.isArray(v) ? v : undefined)),
  ownership: field(
    'its ownership record',
    ['ownershipRecord', 'ownership', 'verificationRecord', 'records.ownership'],
    (v) => (isRecord(v) ? v : undefined),
  ),
  state: field('its status word', ['status', 'state', 'verificationStatus'], asText),
  paused: field('whether it is paused', ['paused', 'isPaused'], (v) => (typeof v === 'boolean' ? v : undefined)),
  verified: field('whether it is verified', ['verified', 'isVerified'], (v) =>
    typeof v === 'boolean' ? v : undefined,
  ),
});

export const DNS_RECORD = resource('DNS record', 'an email domain’s DKIM and ownership records', {
  type: field('its type', ['type', 'recordType'], asText),
  host: field('its host', ['host', 'name', 'hostname'], asText),
  value: field('its value', ['value', 'data', 'content', 'target'], asText),
});

export interface EmailDomain {
  domainId: string;
  name: string;
  dkimStatus?: string;
  canRestart?: boolean;
  paused: boolean;
  verified: boolean;
  raw: Record<string, unknown>;
}

export function readEmailDomain(raw: unknown): EmailDomain {
  const f = EMAIL_DOMAIN.fields;
  const state = (locate(raw, f.state)?.value ?? '').toLowerCase();
  return {
    domainId: locate(raw, f.domainId)?.value ?? '',
    name: locate(raw, f.name)?.value ?? '',
    dkimStatus: locate(raw, f.dkimStatus)?.value,
    canRestart: locate(raw, f.canRestart)?.value,
    paused: locate(raw, f.paused)?.value === true || state === 'paused',
    verified: locate(raw, f.verified)?.value === true || state === 'verified',
    raw: recordOf(raw),
  };
}

export interface DnsRecord {
  /** 'DKIM 1'…'DKIM 3', 'Ownership'. */
  label: string;
  kind: 'dkim' | 'ownership';
  type: string;
  host: string;
  value: string;
}

function toDns(r: unknown, label: string, kind: DnsRecord['kind']): DnsRecord {
  const f = DNS_RECORD.fields;
  return {
    label,
    kind,
    type: locate(r, f.type)?.value ?? '',
    host: locate(r, f.host)?.value ?? '',
    value: locate(r, f.value)?.value ?? '',
  };
}

export function dnsRecordsOf(domain: unknown): DnsRecord[] {
  const f = EMAIL_DOMAIN.fields;
  const dkim = locate(domain, f.dkim)?.value ?? [];
  const ownership = locate(domain, f.ownership)?.value;
  const out = dkim.map((r, i) => toDns(r, `DKIM ${i + 1}`, 'dkim'));
  if (ownership) out.push(toDns(ownership, 'Ownership', 'ownership'));
  return out;
}

/** The domains listed under emailDomains.items of get_site_email_settings (or close to it). */
export function emailDomainsOf(data: unknown): Record<string, unknown>[] {
  const d = recordOf(data);
  const holder = d.emailDomains ?? d.domains ?? recordOf(d.settings).emailDomains;
  const items = Array.isArray(holder) ? holder : recordOf(holder).items;
  return Array.isArray(items) ? items.map(recordOf) : [];
}

/** restart's answer: the domain with its new records, or under `domain` / `emailDomain` (not shown). */
export function restartedDomainOf(data: unknown): unknown {
  const d = recordOf(data);
  return dnsRecordsOf(d).length ? d : (d.domain ?? d.emailDomain);
}
