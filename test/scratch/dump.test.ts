import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { startEmulator } from '../../src/emulator/index.js';
it('dumps', async () => {
  const emu = await startEmulator({ port: 0 });
  writeFileSync('/tmp/sb-state.json', JSON.stringify(emu.state, null, 1));
  await emu.close();
});
