// The one time parser and the one "newest first" of the CLI (docs/real-service.md "The service
// model"). The service shows no time field's format: ISO-8601 text, epoch milliseconds and
// epoch seconds are all read, as numbers or as text holding one.

/** Below this, a number is epoch seconds: as milliseconds it would be before March 1973. */
const SECONDS_BELOW = 1e11;

/** A time in ms, or undefined when the value is no time of a form above. */
export function parseTime(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < SECONDS_BELOW ? value * 1000 : value;
  }
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return parseTime(Number(text));
  // A date-like text only: Date.parse takes "1" or "March" too.
  if (!/^\d{4}-\d\d-\d\d/.test(text) && !/\d{1,2}:\d\d/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Records newest first by their times, when every one shows a time (a stable sort: equal times
 * keep the service's order). Otherwise the service's order, and `sorted` false: the caller says
 * so rather than promise an order the list does not have.
 */
export function newestFirst<T>(
  records: readonly T[],
  timeOf: (r: T) => number | undefined,
): { records: T[]; sorted: boolean } {
  const times = records.map(timeOf);
  if (times.some((t) => t === undefined)) return { records: [...records], sorted: false };
  return {
    records: records
      .map((r, i) => ({ r, t: times[i] as number, i }))
      .sort((a, b) => b.t - a.t || a.i - b.i)
      .map((x) => x.r),
    sorted: true,
  };
}
