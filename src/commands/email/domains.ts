import { defineCommand, SERVICE_EXITS } from '../../core/define.js';
import { cellText } from '../../io/print.js';
import { sanitizeDeep, sanitizeInline } from '../../io/sanitize.js';
import { style } from '../../io/style.js';
import { dnsRecordsOf, domainIdOf, domainNameOf, emailDomainsOf, statusInWords, statusOf } from './records.js';
import { printRecordsTable } from './records-table.js';
import { SITE_ARG } from '../shared/site-arg.js';

export const domains = defineCommand({
  name: 'domains',
  aliases: ['list', 'ls'],
  summary: 'Show the email domains of a site, their status and the DNS records to set',
  description:
    'Show each email domain of the site: its DKIM status in words, whether its verification can be restarted, and the DNS records to set at your DNS host (three DKIM records and one ownership record). No host or value is ever cut on a terminal. Piped, one tab-separated row per record: domainId, domain, dkimStatus, record, type, host, value.',
  exitCodes: `0 shown; ${SERVICE_EXITS}`,
  args: [SITE_ARG],
  examples: [
    'sitebuilder email domains site_1',
    'sitebuilder email domains site_1 --json | jq ".domains[].dkimStatus"',
    "sitebuilder email domains site_1 | awk -F'\\t' '$4 ~ /DKIM/'",
  ],
  jsonFields:
    '{projectId, domains: [the domain records as sent (domainId, dkimStatus, canRestart, DKIM and ownership records…) plus statusText]}',
  async run(opts, ctx) {
    const site = ctx.site(opts.site);
    const { envelope } = await ctx.api().call('get_site_email_settings', { projectId: site }, { signal: ctx.signal });
    const list = emailDomainsOf(envelope.data);
    const { io } = ctx;
    if (ctx.globals.json) {
      io.printJson({ projectId: site, domains: list.map((d) => ({ ...d, statusText: statusInWords(d, site) })) });
      return;
    }
    if (list.length === 0) {
      io.info(`Site ${site} has no email domains.`);
      return;
    }
    if (!io.stdoutIsTTY) {
      for (const d of list) {
        for (const r of dnsRecordsOf(d)) {
          io.outLine(
            [domainIdOf(d), domainNameOf(d), d.dkimStatus, r.label, r.type, r.host, r.value]
              .map((v) => cellText(v).replace(/\t/g, ' '))
              .join('\t'),
          );
        }
      }
      return;
    }
    const s = style(io);
    list.forEach((raw, i) => {
      const d = sanitizeDeep(raw);
      if (i > 0) io.outLine();
      io.outLine(
        io.prose(
          `${s.bold(sanitizeInline(domainNameOf(d) || domainIdOf(d)))}  ${s.dim(`(${domainIdOf(d)})`)}`,
          'stdout',
        ),
      );
      const { words, next } = statusOf(d, site);
      io.outLine(
        io.prose(`  Status: ${words}${d.canRestart === true ? '' : s.dim(' (cannot be restarted now)')}`, 'stdout'),
      );
      if (next) io.outLine(io.prose(`  Next:   ${next}`, 'stdout'));
      printRecordsTable(io, dnsRecordsOf(d));
    });
  },
});
