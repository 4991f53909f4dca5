// Waits for an event instead of sleeping: polls a condition until it gives a value, and fails
// with what it waited for (and, if given, the state last seen) once the deadline has passed.
// A test never asserts after a fixed sleep: it waits for the event that proves the thing
// happened (a request-log entry, text on the screen, a file), or could have.

export interface WaitForOptions {
  /** What the test waits for, named in the failure: "the first call to be in flight". */
  what: string;
  /** Wall milliseconds before giving up; generous, since a loaded machine is slow, not wrong. */
  deadlineMs?: number;
  /** Wall milliseconds between two checks. */
  intervalMs?: number;
  /** The state last seen, added to the failure (the screen of a terminal, a log). */
  detail?: () => string;
}

/**
 * Resolves with the first value of condition() that is neither false, null nor undefined;
 * rejects when the deadline passes first.
 */
export async function waitFor<T>(
  condition: () => T | false | null | undefined | Promise<T | false | null | undefined>,
  { what, deadlineMs = 10_000, intervalMs = 10, detail }: WaitForOptions,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await condition();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) {
      const seen = detail ? `; last seen:\n${detail()}` : '.';
      throw new Error(`Timed out after ${deadlineMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
