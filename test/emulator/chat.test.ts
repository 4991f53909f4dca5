// The chat domain over real HTTP: jobs, cursor paging, reset, plan, ask_user, fail, stall,
// cancel, the queue and its caps, history paging, credits. Time is a FakeClock moved by hand.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock.js';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { harness, type Harness } from './helpers.js';

const clock = new FakeClock();
let h: Harness;
const SITE = 'site_bakery';

beforeAll(async () => {
  h = await harness({ clock });
});
afterAll(() => h.close());
beforeEach(() => h.emu.control.reset());

async function send(prompt: string, extra: Record<string, unknown> = {}, token?: string) {
  const a = await h.call('send_message', { projectId: SITE, prompt, ...extra }, token ? { token } : {});
  return a;
}
async function job(jobId: string, cursor = 0) {
  const a = await h.call('get_job', { projectId: SITE, jobId, cursor });
  expect(a.status).toBe(200);
  return a.body.data;
}
/** Polls to the end, 1 emulated second apart; returns every event and the last answer. */
async function runToEnd(jobId: string) {
  let cursor = 0;
  const events: any[] = [];
  const states = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const d = await job(jobId, cursor);
    if (d.reset) events.length = 0;
    events.push(...d.events);
    states.add(d.state);
    cursor = d.cursor;
    if (['succeeded', 'failed', 'cancelled'].includes(d.state)) return { events, last: d, states };
    clock.advance(1000);
  }
  throw new Error('run never ended');
}

describe('send_message and get_job', () => {
  it('a build streams text, todos, steps and real files, then succeeds with its cost', async () => {
    const before = h.emu.emulator.workspace('ws_demo')!.credits;
    const a = await send('Add an about page and a contact page, in blue');
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ queued: false, jobId: expect.stringMatching(/^job_/) });
    const first = await job(a.body.data.jobId);
    expect(first).toMatchObject({
      state: 'running',
      cursor: 0,
      events: [],
      creditsCharged: null,
      reset: false,
      error: null,
    });
    const { events, last } = await runToEnd(a.body.data.jobId);
    const kinds = new Set(events.map((e) => e.event));
    for (const k of ['text', 'todos', 'tool_call', 'tool_result', 'file_changed', 'credits_used'])
      expect(kinds).toContain(k);
    expect(last.creditsCharged).toBeGreaterThan(0);
    expect(h.emu.emulator.workspace('ws_demo')!.credits).toBe(before - last.creditsCharged);
    const files =
      (await h.control('GET', `sites/${SITE}/files`)).body.data?.files ??
      (await h.control('GET', `sites/${SITE}/files`)).body.files;
    expect(files['about.html']).toContain('<h2>About</h2>');
    expect(files['styles.css']).toContain('#2e86de');
    // The cursor pages: nothing new after the end.
    expect((await job(a.body.data.jobId, last.cursor)).events).toEqual([]);
  });

  it('plan mode writes a plan, changes no file, and ends with plan_approval_requested; a build approves it', async () => {
    const filesBefore = JSON.stringify(h.emu.emulator.slice<any>('chat').sites[SITE].files);
    const a = await send('Add a gallery page with photos of our bread', { mode: 'plan' });
    const { events, last } = await runToEnd(a.body.data.jobId);
    expect(last.state).toBe('succeeded');
    expect(events.at(-2).event).toBe('plan_approval_requested');
    expect(
      events
        .filter((e) => e.event === 'text')
        .map((e) => e.data.text)
        .join(''),
    ).toContain('Here is my plan');
    expect(events.some((e) => e.event === 'file_changed')).toBe(false);
    expect(JSON.stringify(h.emu.emulator.slice<any>('chat').sites[SITE].files)).toBe(filesBefore);
    // Revise: another plan message, answered at once (never queued) with a revised plan.
    const r = await send('also add prices', { mode: 'plan' });
    expect(r.body.data.queued).toBe(false);
    const revised = await runToEnd(r.body.data.jobId);
    expect(revised.events.map((e) => e.data.text ?? '').join('')).toContain('revised plan');
    // Approve: a build message.
    const b = await send('Approved');
    const built = await runToEnd(b.body.data.jobId);
    expect(built.events.some((e) => e.event === 'file_changed' && e.data.path === 'gallery.html')).toBe(true);
  });

  it('a very short prompt asks through ask_user with up to four options; the reply runs at once', async () => {
    const a = await send('make it nice');
    const { events } = await runToEnd(a.body.data.jobId);
    const ask = events.find((e) => e.event === 'tool_call' && e.data.name === 'ask_user');
    expect(ask.data.input.question).toMatch(/\?$/);
    expect(ask.data.input.options.length).toBeLessThanOrEqual(4);
    const reply = await send('A small business site');
    expect(reply.body.data.queued).toBe(false);
    const { last } = await runToEnd(reply.body.data.jobId);
    expect(last.state).toBe('succeeded');
  });

  it('#fail ends failed with error events and an error object', async () => {
    const a = await send('Rebuild the menu page please #fail');
    const { events, last, states } = await runToEnd(a.body.data.jobId);
    expect(last.state).toBe('failed');
    expect(states.has('running')).toBe(true);
    expect(events.some((e) => e.event === 'error')).toBe(true);
    expect(last.error).toMatchObject({
      code: 'agent_build_failed',
      message: expect.stringContaining('could not finish'),
    });
  });

  it('#stall reads stalled for a while, then goes on', async () => {
    const a = await send('Add opening hours to the home page #stall:20');
    const { states, last } = await runToEnd(a.body.data.jobId);
    expect(states.has('stalled')).toBe(true);
    expect(last.state).toBe('succeeded');
  });

  it('#reset replays the events with reset true: derived counts are not doubled', async () => {
    const a = await send('Add an about page and a contact page #reset');
    const { events, states } = await runToEnd(a.body.data.jobId);
    expect(states.has('succeeded')).toBe(true);
    const paths = events.filter((e) => e.event === 'file_changed').map((e) => e.data.path);
    expect(new Set(paths).size).toBe(paths.length);
    // A poller that saw the start before the reset gets reset true.
    const b = await send('Add a team page and a faq page #reset');
    const early = await job(b.body.data.jobId, 0);
    clock.advance(1500);
    const seen = await job(b.body.data.jobId, 0);
    expect(seen.events.length).toBeGreaterThan(0);
    let sawReset = false;
    let cursor = seen.cursor;
    for (let i = 0; i < 200 && !sawReset; i++) {
      clock.advance(1000);
      const d = await job(b.body.data.jobId, cursor);
      sawReset = d.reset;
      cursor = d.cursor;
    }
    expect(early.reset).toBe(false);
    expect(sawReset).toBe(true);
  });
});

describe('cancel_job', () => {
  it('cancels the active run, keeps what was written, stops the queue; clearSession starts fresh', async () => {
    const a = await send('Add an about page, a contact page and a gallery page #long');
    clock.advance(15_000);
    const queued = await send('Then make the header bigger please');
    expect(queued.body.data).toMatchObject({ queued: true, queuePosition: 1, queueResumable: false });
    const c = await h.call('cancel_job', { projectId: SITE, jobId: a.body.data.jobId, clearSession: true });
    expect(c.status).toBe(200);
    expect(c.body.data).toMatchObject({
      cancelled: true,
      state: 'cancelled',
      sessionCleared: true,
      queueStopped: true,
    });
    const d = await job(a.body.data.jobId);
    expect(d.state).toBe('cancelled');
    expect(d.events.some((e: any) => e.event === 'file_changed')).toBe(true);
    expect(d.creditsCharged).toBeGreaterThan(0);
    // The queue stopped: the queued message waits; a later send answers queueResumable true.
    clock.advance(60_000);
    const later = await send('And a footer with the address');
    expect(later.body.data).toMatchObject({ queued: true, queuePosition: 2, queueResumable: true });
    const again = await h.call('cancel_job', { projectId: SITE, jobId: a.body.data.jobId });
    expect(again.status).toBe(409);
    // resume_queue runs the waiting messages; the fresh session shows in the first run's text.
    const r = await h.call('resume_queue', { projectId: SITE });
    expect(r.body.data).toMatchObject({ resumed: true, waiting: 1, jobId: expect.any(String) });
    const { events } = await runToEnd(r.body.data.jobId);
    expect(events[0].data.text).toContain('Starting a fresh');
  });
});

describe('the queue', () => {
  it('caps 8 per person and 20 per site with 429 naming the cap and no Retry-After', async () => {
    await send('Add an about page and a contact page #long');
    for (let i = 0; i < 8; i++) expect((await send(`Queued message number ${i}`)).body.data.queued).toBe(true);
    const ninth = await send('One more from the same person');
    expect(ninth.status).toBe(429);
    expect(ninth.body.message).toMatch(/8 messages/);
    expect(ninth.body.data.code).toBe('queue_person_limit');
    expect(ninth.headers['retry-after']).toBeUndefined();
    for (let i = 0; i < 8; i++) await send(`Teammate message ${i}`, {}, DEMO_TOKENS.teammate);
    await h.emu.control.createToken({
      name: 'third',
      userId: 'usr_olivia',
      scopes: ['chat:write', 'chat:read'],
    } as never);
    const list = await h.call('list_queued_messages', { projectId: SITE });
    expect(list.body.data.items).toHaveLength(16);
    expect(list.body.count).toBe(16);
    // Four more from a third member would make 20; the 21st is refused naming the site cap.
    const ws = h.emu.emulator.workspace('ws_demo')!;
    ws.members.push({ userId: 'usr_olivia', role: 'editor', permissions: ['apiAccess'] });
    const third = h.emu.control.tokens().find((t) => t.name === 'third')!.token;
    for (let i = 0; i < 4; i++) expect((await send(`Third ${i}`, {}, third)).body.data.queued).toBe(true);
    const full = await send('Twenty-first', {}, third);
    expect(full.status).toBe(429);
    expect(full.body.message).toMatch(/20 waiting messages/);
    expect(full.body.data.code).toBe('queue_full');
  });

  it('edit checks expectedVersion; reorder moves; remove needs sites:delete; items run in order on their own', async () => {
    const a = await send('Add an about page and a contact page');
    const q1 = (await send('First queued message here')).body.data;
    const q2 = (await send('Second queued message here')).body.data;
    const stale = await h.call('edit_queued_message', {
      projectId: SITE,
      queueItemId: q1.queueItemId,
      prompt: 'Rewritten first message',
      expectedVersion: 0,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.data.QueueVersion).toBe(1);
    const ok = await h.call('edit_queued_message', {
      projectId: SITE,
      queueItemId: q1.queueItemId,
      prompt: 'Rewritten first message',
      expectedVersion: 1,
    });
    expect(ok.body.data).toMatchObject({ QueueVersion: 2, prompt: 'Rewritten first message' });
    const notMine = await h.call(
      'edit_queued_message',
      { projectId: SITE, queueItemId: q1.queueItemId, prompt: 'x', expectedVersion: 2 },
      { token: DEMO_TOKENS.teammate },
    );
    expect(notMine.status).toBe(403);
    const moved = await h.call('reorder_queued_message', { projectId: SITE, queueItemId: q2.queueItemId, position: 1 });
    expect(moved.body.data.items.map((i: any) => i.queueItemId)).toEqual([q2.queueItemId, q1.queueItemId]);
    const ro = await h.call(
      'remove_queued_message',
      { projectId: SITE, queueItemId: q1.queueItemId },
      { token: DEMO_TOKENS.readonly },
    );
    expect(ro.status).toBe(403);
    expect(ro.body.message).toContain('sites:delete');
    await runToEnd(a.body.data.jobId);
    clock.advance(600_000);
    const msgs = (await h.call('list_messages', { projectId: SITE, limit: 100 })).body.data.items
      .filter((m: any) => m.role === 'user')
      .map((m: any) => m.text);
    expect(msgs.slice(0, 3)).toEqual([
      'Rewritten first message',
      'Second queued message here',
      'Add an about page and a contact page',
    ]);
  });
});

describe('list_messages and credits', () => {
  it('pages backwards with hasMore and oldestCursor', async () => {
    for (let i = 0; i < 5; i++) {
      const a = await send(`Change number ${i} to the home page`);
      await runToEnd(a.body.data.jobId);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const p = (await h.call('list_messages', { projectId: SITE, limit: 3, ...(cursor ? { cursor } : {}) })).body.data;
      seen.push(...p.items.map((m: any) => m._id));
      if (!p.hasMore) break;
      cursor = p.oldestCursor;
    }
    expect(seen).toEqual([...seen].sort().reverse());
    expect(new Set(seen).size).toBe(12);
  });

  it('402 with nothing run on an empty balance, with a site chat error code', async () => {
    h.emu.emulator.workspace('ws_demo')!.credits = 0;
    const a = await send('Add an about page and a contact page');
    expect(a.status).toBe(402);
    expect(a.body.data.code).toBe('insufficient_credits');
    expect(h.emu.emulator.slice<any>('chat').sites[SITE].activeJobId).toBeNull();
  });

  it('send_message is refused while the code is being moved (code hosting), with data.code, nothing run', async () => {
    await h.control('POST', `sites/${SITE}/code-hosting`, { state: 'moving' });
    const a = await send('Add an about page and a contact page');
    expect(a.status).toBe(409);
    expect(a.body.data.code).toBe('code_moving');
    expect(h.emu.emulator.slice<any>('chat').sites[SITE].activeJobId).toBeNull();
    const locked = await h.call('send_message', {
      projectId: 'site_client',
      prompt: 'Add an about page and a contact page',
    });
    expect(locked.status).toBe(403);
    expect(typeof locked.body.data.code).toBe('string');
  });

  it('create_site runs the agent for its first build', async () => {
    const c = await h.call('create_site', {
      workspaceId: 'ws_demo',
      prompt: 'A portfolio for a ceramic artist with a gallery and contact page',
    });
    const site = c.body.data.site._id;
    const d = await h.call('get_job', { projectId: site, jobId: c.body.data.jobId, cursor: 0 });
    expect(d.body.data.state).toBe('running');
    clock.advance(120_000);
    const e = await h.call('get_job', { projectId: site, jobId: c.body.data.jobId, cursor: 0 });
    expect(e.body.data.state).toBe('succeeded');
    expect(e.body.data.events.filter((x: any) => x.event === 'file_changed').map((x: any) => x.data.path)).toContain(
      'gallery.html',
    );
  });
});
