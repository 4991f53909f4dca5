// PLACEHOLDER until the chat issue lands (issue 4 owns this file and replaces it whole): the
// first build of create_site is a run that simply succeeds, and get_job reads it back.
import type { Emulator } from '../emulator.js';
import { defineDomain, type CallContext, type HandlerResult } from '../types.js';

interface PlaceholderJob {
  jobId: string;
  projectId: string;
  state: 'succeeded';
  events: Array<{ event: string; data: Record<string, unknown> }>;
  creditsCharged: number;
  createdAt: number;
}

interface ChatState {
  jobs: Record<string, PlaceholderJob>;
}

const FIRST_BUILD_COST = 1;

const slice = (emu: Emulator) => emu.slice<ChatState>('chat');

function getJob(call: CallContext): HandlerResult {
  const { projectId, jobId, cursor = 0 } = call.args as { projectId: string; jobId: string; cursor?: number };
  const site = call.requireSite(projectId);
  const job = slice(call.emu).jobs[jobId];
  if (!job || job.projectId !== site._id) call.refuse(404, `No job has the id "${jobId}" on this site.`, { reason: 'not-found', jobId });
  return {
    data: {
      jobId: job.jobId,
      state: job.state,
      events: job.events.slice(cursor),
      cursor: job.events.length,
      creditsCharged: job.creditsCharged,
      reset: false,
      error: null,
    },
  };
}

export const chatDomain = defineDomain<ChatState>({
  name: 'chat',
  init: () => ({ jobs: {} }),
  handlers: { get_job: getJob },
  attach(emu) {
    emu.jobs = {
      start({ site, workspace, prompt }) {
        const jobId = emu.newId('job');
        const charged = Math.min(FIRST_BUILD_COST, workspace.credits);
        workspace.credits -= charged;
        workspace.creditsSpent += charged;
        slice(emu).jobs[jobId] = {
          jobId,
          projectId: site._id,
          state: 'succeeded',
          events: [
            { event: 'text', data: { text: `Built a first version of ${site.name} from the brief (${prompt.length} characters).` } },
            { event: 'credits_used', data: { credits: charged } },
          ],
          creditsCharged: charged,
          createdAt: emu.clock.now(),
        };
        return { jobId };
      },
    };
  },
});
