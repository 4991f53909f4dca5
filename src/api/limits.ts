// The service's limits (docs/emulator.md "Limits"), in a module light enough for start-up: no
// zod here.
export const LIMITS = {
  promptMax: 500_000,
  selectedPathsMax: 200,
  bodyBytesMax: 150 * 1024 * 1024,
  nestingMax: 64,
  listItemsMax: 10_000,
  idempotencyKeyMax: 255,
  callsPerMinute: 240,
  queuePerSite: 20,
  queuePerPerson: 8,
  analyticsPerSiteHour: 1_200,
  deployHookPerMinute: 10,
  emailRestartsPerWorkspaceHour: 10,
} as const;

/** A batch sends KEY-SITE for each site (docs/scripting.md "Many sites at once"): the key given leaves room for the id. */
export const BATCH_KEY_MAX = 200;

/**
 * The one check of an Idempotency-Key, for the client, the command line, the batches and the
 * emulator: 1 to `max` visible ASCII characters (the service's bound is 255).
 */
export function isIdempotencyKey(key: string, max: number = LIMITS.idempotencyKeyMax): boolean {
  return key.length >= 1 && key.length <= max && /^[\x21-\x7e]+$/.test(key);
}

/** 500000 → "500,000". (toLocaleString would load ICU: ~20 ms of start-up.) */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
