import { defineCommand } from '../../core/define.js';
import { CliError, UsageError } from '../../errors.js';
import { confirmDestructive } from '../shared/confirm.js';
import { cellText } from '../../io/print.js';
import { readEmailDomain, restartedDomainOf } from '../../service/email.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { dnsRecordsOf, domainIdOf, domainNameOf, emailDomainsOf, statusOf, type DnsRecord } from './records.js';
import { printRecordsTable } from './records-table.js';
import { sb } from '../../io/shell.js';
import { SITE_ARG } from '../shared/site-arg.js';

type MarkedRecord = DnsRecord & { changed: boolean; previousValue: string | null };

/** Each record of the new answer, marked changed when its host or value differs from before. */
export function markChanges(before: DnsRecord[], after: DnsRecord[]): MarkedRecord[] {
  return after.map((r) => {
    const old = before.find((b) => b.label === r.label);
    const changed = !old || old.value !== r.value || old.host !== r.host || old.type !== r.type;
    return { ...r, changed, previousValue: old && changed ? old.value : null };
  });
}

export const restart = defineCommand({
  name: 'restart',
  summary: 'Set an email domain up again with the mail provider (its DKIM records change)',
  description:
    'Restart the verification of an email domain: the mail provider sets it up again and the three DKIM records change, so they must be replaced at your DNS host with the new values printed here (the ownership record stays). Asks for confirmation first (--yes in scripts). The service refuses a verified domain, one whose records are confirmed or still being checked, a paused domain, and more than 10 restarts an hour in a workspace.',
  exitCodes:
    '0 restarted, 5 needs --yes, 7 the hour’s 10 restarts used, 130 declined; 1 refused, 2 usage, 4 auth or a paused domain',
  args: [SITE_ARG, { name: 'domain-id', description: 'the domainId, from `sitebuilder email domains <site>`' }],
  usage: '[options] [site] <domain-id>',
  examples: [
    'sitebuilder email restart site_1 edom_2',
    'sitebuilder email restart edom_2   # on the default site',
    'sitebuilder email restart site_1 edom_2 --yes --json',
  ],
  jsonFields:
    '{projectId, domainId, domain, dkimStatus, records: [{label, kind, type, host, value, changed, previousValue}], answer: the data sent back}',
  async run(opts, ctx) {
    // One argument is the domainId, on the default site (`site use`, SITEBUILDER_SITE).
    const single = opts.domainId === undefined;
    const domainId = (single ? opts.site : opts.domainId) ?? '';
    if (!domainId.trim())
      throw new UsageError(
        'Name the domainId to restart, as in `sitebuilder email restart site_1 edom_2` (`email domains <site>` lists them).',
      );
    const site = ctx.site(single ? undefined : opts.site);
    const client = ctx.api();
    const before = await client.call('get_site_email_settings', { projectId: site }, { signal: ctx.signal });
    const current = emailDomainsOf(before.envelope.data).find((d) => domainIdOf(d) === domainId);
    if (!current) {
      throw new CliError(`Site ${site} has no email domain ${domainId}; \`${sb('email domains', site)}\` lists them.`, {
        projectId: site,
        domainId,
      });
    }
    const name = sanitizeInline(domainNameOf(current) || domainId);
    // Where the service lists the domain as not restartable, that is said before anything is
    // asked; the service still decides (its refusal is shown in its own words, with its exit code).
    if (readEmailDomain(current).canRestart === false)
      ctx.io.info(
        `${name} is listed as not restartable now (${statusOf(current, site).words}); the service is likely to refuse.`,
      );
    await confirmDestructive(ctx, {
      action: `Restart the email domain verification of ${name} (${domainId}) on site ${site}`,
      consequences: [
        'the three DKIM records change: mail from this domain is not signed until you replace them at your DNS host',
        'the ownership record stays as it is',
        'counts toward the workspace’s 10 restarts an hour',
      ],
    });
    const { envelope } = await client.call(
      'restart_site_email_domain_verification',
      { projectId: site, domainId },
      { signal: ctx.signal },
    );
    let after: unknown = restartedDomainOf(envelope.data);
    if (!after || dnsRecordsOf(after).length === 0) {
      // The answer did not carry the records: read them back.
      const again = await client.call('get_site_email_settings', { projectId: site }, { signal: ctx.signal });
      after = emailDomainsOf(again.envelope.data).find((d) => domainIdOf(d) === domainId) ?? {};
    }
    const records = markChanges(dnsRecordsOf(current), dnsRecordsOf(after));
    const { io } = ctx;
    if (ctx.globals.json) {
      io.printJson({
        projectId: site,
        domainId,
        domain: domainNameOf(after) || domainNameOf(current),
        dkimStatus: readEmailDomain(after).dkimStatus ?? null,
        records,
        answer: envelope.data,
      });
      return;
    }
    const changed = records.filter((r) => r.changed).length;
    io.info(
      `Verification of ${name} restarted. ${changed} record${changed === 1 ? '' : 's'} changed: replace ${changed === 1 ? 'it' : 'them'} at your DNS host.`,
    );
    if (!io.stdoutIsTTY) {
      for (const r of records)
        io.outLine(
          [r.label, r.type, r.host, r.value, r.changed ? 'changed' : 'unchanged']
            .map((v) => cellText(v).replace(/\t/g, ' '))
            .join('\t'),
        );
      return;
    }
    printRecordsTable<MarkedRecord>(io, records, [{ header: 'CHANGED', value: (r) => (r.changed ? 'yes' : 'no') }]);
  },
});
