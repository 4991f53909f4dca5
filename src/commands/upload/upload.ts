// `sitebuilder upload [site] <file…>`: uploads each file as a public storage file and prints its
// permanent address, one a line (an address can be named in a prompt). Every file is checked
// before the first is sent, so a typo never leaves half the files uploaded.
import { existsSync } from 'node:fs';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import { sanitizeInline } from '../../io/sanitize.js';
import { sb } from '../../io/shell.js';
import { defineCommand, type OptionsOf } from '../../core/define.js';
import { Base64File } from './file-source.js';
import { planUploads, type UploadPlanItem } from './files.js';
import { describeUnread, isUnread, recordOf, type Unread } from '../../service/read.js';
import { readUploadAddress } from '../../service/upload.js';
import { interrupted, ofFiles } from './interrupted.js';
import { startUploadProgress } from './progress.js';
import { SITE_ARG } from '../shared/site-arg.js';

export interface UploadRecord {
  siteId: string;
  file: string;
  name: string;
  url: string | null;
  size: number;
  contentType: string;
  [extra: string]: unknown;
}

/**
 * `upload [site] <file…>`: with a default site (`site use`, SITEBUILDER_SITE), a first argument
 * that is a file on disk is a file, not a site id; without one, so is a lone argument that is a
 * file (the site is then picked on a terminal). The files are checked before any site is picked
 * or anything is sent: nothing to upload is said first.
 */
function siteAndFiles(o: OptionsOf<typeof uploadCommand>, ctx: Context): { site?: string; files: string[] } {
  const rest = o.file ?? [];
  const hasDefault = ctx.defaultSite() !== undefined;
  if (o.site !== undefined && (hasDefault || rest.length === 0) && existsSync(o.site))
    return { files: [o.site, ...rest] };
  if (rest.length === 0) {
    throw new UsageError(
      `Name the files to upload (the site may be left out once \`${sb('site use')}\` set a default): ${sb('upload', o.site ?? 'SITE', 'FILE...')}`,
    );
  }
  return { site: ctx.site(o.site), files: rest };
}

/** The site left out: the default, else picked on a terminal, else exit 2 naming it (ctx.site). */
async function siteOf(ctx: Context, site: string | undefined): Promise<string> {
  if (site !== undefined) return site;
  if (ctx.defaultSite() !== undefined || !ctx.prompter.canPrompt()) return ctx.site(undefined);
  return (await import('../../pickers.js')).pickSite(ctx);
}

/**
 * An uploaded file whose address cannot be read: stdout gets no line in its place (an address is
 * its contract), the files after it are not sent, and the error says which were, so that
 * `LOGO=$(sitebuilder upload …) && next` stops (docs/real-service.md "Unread is said").
 */
function addressUnread(ctx: Context, plan: UploadPlanItem[], at: number, records: UploadRecord[], u: Unread): CliError {
  ctx.debug(`unread ${describeUnread(u, 'data.')}`);
  const left = plan.length - at - 1;
  const item = plan[at];
  return new CliError(
    `${item.file} was uploaded, but sitebuilder cannot read an address in the service’s answer, so none is printed (--json shows the answer)${left ? `; the ${left === 1 ? 'file' : `${left} files`} after it ${left === 1 ? 'was' : 'were'} not sent` : ''}.`,
    { uploaded: records },
  );
}

export async function runUpload(o: OptionsOf<typeof uploadCommand>, ctx: Context): Promise<number> {
  const given = siteAndFiles(o, ctx);
  const plan = planUploads(given.files, o.folder);
  const siteId = await siteOf(ctx, given.site);
  const client = ctx.api();
  const records: UploadRecord[] = [];
  const progress = await startUploadProgress(ctx, plan);
  try {
    for (const [i, item] of plan.entries()) {
      progress.start(i);
      let data: Record<string, unknown>;
      try {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        // Streamed from the file as it is encoded (file-source.ts), never held whole.
        const content = await Base64File.open(item);
        const args = {
          projectId: siteId,
          fileName: item.name,
          contentBase64: content,
          contentType: item.contentType,
        };
        const res = await client
          .call('upload_storage_file', args, { signal: ctx.signal, onSent: progress.sent })
          .finally(() => content.close());
        data = recordOf(res.envelope.data);
      } catch (err) {
        // Ctrl-C (or SIGTERM): what was stored, what may have been, what was not.
        if (ctx.signal.aborted) throw interrupted(ctx, plan, i, records, progress);
        if (records.length > 0 && err instanceof CliError) {
          Object.assign(err.details, { uploaded: records });
          ctx.io.info(`${ofFiles(records.length, plan.length)} uploaded before ${item.file} failed.`);
        }
        throw err;
      }
      const { url: _u, size: _s, contentType: _c, ...extra } = data;
      const address = readUploadAddress(data);
      const record: UploadRecord = {
        ...extra,
        siteId,
        file: item.file,
        name: item.name,
        url: isUnread(address) ? null : address,
        size: item.size,
        contentType: item.contentType,
      };
      records.push(record);
      if (isUnread(address)) throw addressUnread(ctx, plan, i, records, address);
      if (!ctx.globals.json) progress.pause(() => ctx.io.outLine(sanitizeInline(address)));
    }
  } finally {
    progress.stop();
  }
  if (ctx.globals.json) ctx.io.printJson(records);
  return 0;
}

export const uploadCommand = defineCommand({
  name: 'upload',
  summary: 'Upload files to the site’s storage and print their permanent addresses',
  description:
    'Uploads each file as a public storage file and prints its permanent address, one a line, in the order given.\n' +
    'Every file is checked first (it exists, is readable, at most 100 MiB): a missing or unreadable file is a usage error (exit 2) and nothing is sent.\n' +
    'On a terminal a progress line shows bytes sent, rate and time left; Ctrl-C stops at once and says which files were stored.',
  exitCodes:
    '0 every file uploaded; 1 an upload failed (the addresses printed stay valid), 2 usage (nothing sent), 4 auth, 130 interrupted',
  learnMore: 'docs/guide.md#publishing-and-uploads',
  args: [
    // Both optional for commander: `[site] <file...>` would take the only word given for the site.
    // Picked here, once the files are checked (siteOf), not before the command runs.
    { ...SITE_ARG, pick: false },
    { name: 'file', description: 'files to upload (at least one)', variadic: true },
  ],
  usage: '[options] [site] <file...>',
  options: [{ flags: '--folder <path>', description: 'store the files under this folder (e.g. images/team)' }],
  examples: [
    'sitebuilder upload s_123 logo.png',
    'sitebuilder upload logo.png   # on the default site (`site use`)',
    'sitebuilder upload s_123 photos/*.jpg --folder images/team',
    'LOGO=$(sitebuilder upload s_123 logo.png) && sitebuilder chat s_123 "Use $LOGO as the logo"',
    'sitebuilder upload s_123 a.pdf b.pdf --json | jq -r ".[].url"',
  ],
  jsonFields: '[{ siteId, file, name, url, size, contentType }] (one record per file, in the order given)',
  run: (o, ctx): Promise<number> => runUpload(o, ctx),
});
