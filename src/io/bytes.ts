// Sizes as people read them, in one convention everywhere (upload's progress, storage backups and
// their files, restore plans): binary units, labelled as such — 1 KiB is 1,024 bytes, 1 MiB
// 1,048,576 — so a figure never says MB for a mebibyte (8,000,000 bytes is 7.6 MiB).
export const KiB = 1024;
export const MiB = KiB * 1024;
export const GiB = MiB * 1024;
const TiB = GiB * 1024;

/** The unit a size reads in: its divisor and label. */
export function byteUnit(n: number): [number, string] {
  if (n >= TiB) return [TiB, 'TiB'];
  if (n >= GiB) return [GiB, 'GiB'];
  if (n >= MiB) return [MiB, 'MiB'];
  if (n >= KiB) return [KiB, 'KiB'];
  return [1, 'B'];
}

/** "512 B", "2.9 KiB", "15 KiB", "7.6 MiB": one decimal under 10 of the unit. */
export function formatSize(n: number): string {
  const [div, unit] = byteUnit(n);
  if (div === 1) return `${n} B`;
  const v = n / div;
  return `${v.toFixed(v < 10 ? 1 : 0)} ${unit}`;
}
