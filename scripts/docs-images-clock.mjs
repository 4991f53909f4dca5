// Preloaded (node --import) into the emulator and the CLI that scripts/docs-images.mjs runs: the
// calendar is moved by DOCS_IMAGES_TIME_SHIFT_MS and goes on at the wall's pace, so that the
// dates in the pictures (seeded backups, a restore's start) are the same from one run to the
// next, while every duration is measured as it really passed.
const shift = Number(process.env.DOCS_IMAGES_TIME_SHIFT_MS);
if (Number.isFinite(shift)) {
  const WallDate = Date;
  globalThis.Date = class extends WallDate {
    constructor(...args) {
      if (args.length === 0) super(WallDate.now() + shift);
      else super(...args);
    }
    static now() {
      return WallDate.now() + shift;
    }
  };
}
