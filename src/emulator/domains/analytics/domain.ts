// Analytics: get_site_analytics (visits and page views by day), get_site_analytics_pages and
// get_site_analytics_referrers (top lists). At most 1,200 lookups a site an hour, shared by
// every token and AI client (the service's limit): past it, 429 until the oldest lookup of the
// hour leaves the window. Our choices where the service leaves it open (docs/emulator.md):
// `from`/`to` are days (YYYY-MM-DD, default the last 7 days up to today), at most 366 days;
// the numbers are made up but stable for a site and a day.
import { LIMITS } from '../../../api/limits.js';
import { defineDomain } from '../../types.js';
import { quotaWait, waitWords } from '../shared/listing.js';
import { DAY, HOUR, seededRandom } from '../shared/sample-data.js';
import type { CallContext, HandlerResult } from '../../host.js';

export interface AnalyticsSlice {
  /** siteId → times of the lookups of the last hour. */
  lookups: Record<string, number[]>;
}

export const ANALYTICS_DOMAIN = 'analytics';
const MAX_DAYS = 366;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function range(call: CallContext): string[] {
  const today = dayOf(call.now());
  const to = call.args.to ?? today;
  const from = call.args.from ?? dayOf(Date.parse(`${to}T00:00:00Z`) - 6 * DAY);
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || dayOf(start) !== from)
    call.refuse(400, `The argument \`from\` is not a calendar day: "${from}" (use YYYY-MM-DD).`);
  if (Number.isNaN(end) || dayOf(end) !== to)
    call.refuse(400, `The argument \`to\` is not a calendar day: "${to}" (use YYYY-MM-DD).`);
  if (start > end) call.refuse(400, `\`from\` (${from}) comes after \`to\` (${to}).`);
  const days = (end - start) / DAY + 1;
  if (days > MAX_DAYS) call.refuse(400, `The range holds ${days} days; at most ${MAX_DAYS} can be looked up at once.`);
  return Array.from({ length: days }, (_, i) => dayOf(start + i * DAY));
}

/** Counts the lookup against the site's hour, or refuses with 429 and how long to wait. */
function lookup(call: CallContext): { siteId: string; days: string[] } {
  const site = call.requireSite(call.args.projectId);
  const days = range(call);
  const s = call.emu.slice<AnalyticsSlice>(ANALYTICS_DOMAIN);
  const times = (s.lookups[site._id] ??= []);
  const wait = quotaWait(times, call.now(), HOUR, LIMITS.analyticsPerSiteHour);
  if (wait !== null) {
    call.refuse(
      429,
      `This site used its ${LIMITS.analyticsPerSiteHour.toLocaleString('en-US')} analytics lookups of the hour (shared by every token and AI client). Try again in ${waitWords(wait)}.`,
      {
        reason: 'analytics-limit-reached',
        limit: LIMITS.analyticsPerSiteHour,
        retryAfterSeconds: Math.ceil(wait / 1000),
      },
    );
  }
  times.push(call.now());
  return { siteId: site._id, days };
}

const dayStats = (siteId: string, day: string) => {
  const random = seededRandom(`${siteId}:${day}`);
  const visits = 40 + Math.floor(random() * 260);
  return {
    date: day,
    visits,
    visitors: Math.round(visits * (0.6 + random() * 0.3)),
    pageViews: Math.round(visits * (1.4 + random() * 2)),
  };
};

function getSiteAnalytics(call: CallContext): HandlerResult {
  const { siteId, days } = lookup(call);
  const byDay = days.map((d) => dayStats(siteId, d));
  const totals = byDay.reduce(
    (t, d) => ({
      visits: t.visits + d.visits,
      visitors: t.visitors + d.visitors,
      pageViews: t.pageViews + d.pageViews,
    }),
    { visits: 0, visitors: 0, pageViews: 0 },
  );
  return {
    data: { projectId: siteId, from: days[0], to: days[days.length - 1], totals, days: byDay },
    message: `${days.length} days of analytics.`,
  };
}

const PAGES = [
  '/',
  '/menu',
  '/about',
  '/contact',
  '/blog',
  '/blog/sourdough-starter',
  '/order',
  '/gallery',
  '/faq',
  '/jobs',
  '/privacy',
  '/events',
];
const REFERRERS = [
  'google.com',
  '(direct)',
  'instagram.com',
  'facebook.com',
  'duckduckgo.com',
  'news.ycombinator.com',
  'bing.com',
  'newsletter',
  'maps.apple.com',
  'reddit.com',
];

function topList(call: CallContext, names: string[], key: string, metric: string): HandlerResult {
  const { siteId, days } = lookup(call);
  const totalViews = days.reduce((n, d) => n + dayStats(siteId, d).pageViews, 0);
  const random = seededRandom(`${siteId}:${key}:${days[0]}:${days[days.length - 1]}`);
  const weights = names.map(() => random() ** 2);
  const sum = weights.reduce((a, b) => a + b, 0);
  const items = names
    .map((name, i) => ({ [key]: name, [metric]: Math.round((totalViews * weights[i]) / sum) }))
    .sort((a, b) => Number(b[metric]) - Number(a[metric]))
    .slice(0, Math.min(call.args.limit ?? 10, 100));
  return {
    data: { projectId: siteId, from: days[0], to: days[days.length - 1], items },
    message: `Top ${items.length}.`,
  };
}

export const analyticsDomain = defineDomain<AnalyticsSlice>({
  name: ANALYTICS_DOMAIN,
  init: () => ({ lookups: {} }),
  handlers: {
    get_site_analytics: getSiteAnalytics,
    get_site_analytics_pages: (call) => topList(call, PAGES, 'path', 'pageViews'),
    get_site_analytics_referrers: (call) => topList(call, REFERRERS, 'referrer', 'visits'),
  },
});
