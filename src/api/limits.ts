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

/** 500000 → "500,000". (toLocaleString would load ICU: ~20 ms of start-up.) */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
