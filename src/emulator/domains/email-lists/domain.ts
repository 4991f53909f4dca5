// The site's email history: list_site_email_sends, list_site_email_engagement (opens and
// clicks, optionally of one send) and list_site_email_suppressions — next-cursor pages of 20,
// newest first. Seeded for the demo sites; the shapes are our choice (docs/emulator.md).
import { defineDomain } from '../../types.js';
import { cursorPage } from '../shared/listing.js';
import { between, HOUR, MINUTE, newestFirst, pickOne, seededRandom } from '../shared/sample-data.js';
import type { CallContext, EmulatorHost, HandlerResult } from '../../host.js';

export interface EmailSendRecord {
  sendId: string;
  siteId: string;
  to: string;
  subject: string;
  kind: 'newsletter' | 'form-notification' | 'receipt';
  at: number;
  status: 'delivered' | 'bounced' | 'complained';
}

export interface EngagementRecord {
  eventId: string;
  sendId: string;
  siteId: string;
  type: 'open' | 'click';
  url: string | null;
  at: number;
}

export interface SuppressionRecord {
  address: string;
  siteId: string;
  reason: 'bounced' | 'complained' | 'unsubscribed';
  at: number;
}

export interface EmailListsSlice {
  sends: EmailSendRecord[];
  engagement: EngagementRecord[];
  suppressions: SuppressionRecord[];
}

const NAME = 'emailLists';
const PAGE = 20;
const slice = (emu: EmulatorHost) => emu.slice<EmailListsSlice>(NAME);

function listSends(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const all = newestFirst(
    slice(call.emu).sends.filter((s) => s.siteId === site._id),
    (s) => s.at,
  );
  return cursorPage(
    all.map((s) => ({ ...s, at: call.emu.iso(s.at) })),
    call.args,
    PAGE,
    'emails',
  );
}

function listEngagement(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const { sendId } = call.args;
  if (sendId !== undefined && !slice(call.emu).sends.some((s) => s.siteId === site._id && s.sendId === sendId)) {
    call.refuse(404, `No email send has the id "${sendId}" on this site.`, { reason: 'not-found', sendId });
  }
  const all = slice(call.emu).engagement.filter(
    (e) => e.siteId === site._id && (sendId === undefined || e.sendId === sendId),
  );
  return cursorPage(
    newestFirst(all, (e) => e.at).map((e) => ({ ...e, at: call.emu.iso(e.at) })),
    call.args,
    PAGE,
    'events',
  );
}

function listSuppressions(call: CallContext): HandlerResult {
  const site = call.requireSite(call.args.projectId);
  const all = newestFirst(
    slice(call.emu).suppressions.filter((s) => s.siteId === site._id),
    (s) => s.at,
  );
  return cursorPage(
    all.map((s) => ({ ...s, at: call.emu.iso(s.at) })),
    call.args,
    PAGE,
    'addresses',
  );
}

function seed(emu: EmulatorHost, s: EmailListsSlice): void {
  if (!emu.site('site_bakery')) return;
  const random = seededRandom('email-lists');
  const now = emu.clock.now();
  const people = ['ana', 'ben', 'chloe', 'dev', 'eunji', 'femi', 'gus', 'hana', 'ivan', 'jo'];
  for (let i = 1; i <= 45; i++) {
    const kind = pickOne(random, ['newsletter', 'newsletter', 'form-notification', 'receipt'] as const);
    const to = `${pickOne(random, people)}${between(random, 1, 99)}@mail.example`;
    const roll = random();
    const status = roll < 0.06 ? 'complained' : roll < 0.14 ? 'bounced' : 'delivered';
    const send: EmailSendRecord = {
      sendId: emu.newId('esend'),
      siteId: 'site_bakery',
      to,
      subject:
        kind === 'newsletter'
          ? `This week at Sunrise Bakery (#${i})`
          : kind === 'receipt'
            ? 'Your order is ready for pickup'
            : 'New message from the contact form',
      kind,
      at: now - i * 11 * HOUR,
      status,
    };
    s.sends.push(send);
    if (status !== 'delivered')
      s.suppressions.push({ address: to, siteId: send.siteId, reason: status, at: send.at + 2 * MINUTE });
    else if (random() < 0.7) {
      s.engagement.push({
        eventId: emu.newId('eeng'),
        sendId: send.sendId,
        siteId: send.siteId,
        type: 'open',
        url: null,
        at: send.at + between(random, 5, 600) * MINUTE,
      });
      if (random() < 0.5) {
        const url = pickOne(random, [
          'https://sunrisebakery.example/menu',
          'https://sunrisebakery.example/order',
          'https://sunrisebakery.example/events',
        ]);
        s.engagement.push({
          eventId: emu.newId('eeng'),
          sendId: send.sendId,
          siteId: send.siteId,
          type: 'click',
          url,
          at: send.at + between(random, 600, 900) * MINUTE,
        });
      }
    }
  }
  for (let i = 1; i <= 6; i++)
    s.suppressions.push({
      address: `${pickOne(random, people)}.old${i}@mail.example`,
      siteId: 'site_bakery',
      reason: 'unsubscribed',
      at: now - i * 3 * 24 * HOUR,
    });
}

export const emailListsDomain = defineDomain<EmailListsSlice>({
  name: NAME,
  init: (): EmailListsSlice => ({ sends: [], engagement: [], suppressions: [] }),
  seed,
  handlers: {
    list_site_email_sends: listSends,
    list_site_email_engagement: listEngagement,
    list_site_email_suppressions: listSuppressions,
  },
});
