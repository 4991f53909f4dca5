// Spending a workspace's AI credits: down to 0 at most, each charge written to the credit
// activity with the balance after it (docs/emulator.md). A call charges through its context
// (call-context.ts); a run charges as it ends, outside any call (domains/chat/runs.ts).
import type { EmulatorHost } from './host.js';
import type { WorkspaceRecord } from './state.js';

/** Spends `amount` credits of `workspace` (as many as it has) for `note`; how many were spent. */
export function chargeCredits(
  emu: EmulatorHost,
  workspace: WorkspaceRecord,
  amount: number,
  note: string,
  siteId: string | null,
): number {
  const charged = Math.max(0, Math.min(amount, workspace.credits));
  workspace.credits -= charged;
  workspace.creditsSpent += charged;
  emu.state.core.creditActivity.push({
    _id: emu.newId('cred'),
    workspaceId: workspace._id,
    at: emu.clock.now(),
    amount: -charged,
    balance: workspace.credits,
    note,
    siteId,
  });
  return charged;
}
