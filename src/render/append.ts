// Appends one list to another in place. `target.push(...source)` passes every element as an
// argument, which throws (call stack size exceeded) past about a hundred thousand: the rows of
// a long text.

export function append<T>(target: T[], source: readonly T[]): T[] {
  for (const item of source) target.push(item);
  return target;
}
