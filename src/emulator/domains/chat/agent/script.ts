// The scripted agent: from a prompt, the site's files and the conversation so far, the whole
// run as a timeline (docs/emulator.md "The scripted agent and chat in the emulator").
// Deterministic: the same inputs give the same run. Paths: a build writes files; plan mode
// writes a plan and changes nothing; a very short prompt (or #ask) asks through ask_user;
// #fail, #stall, #reset and #long reach the rest.
import { readBrief, type Brief } from './brief.js';
import { parseDirectives, wordCount, type Directives } from './directives.js';
import { buildClosing, buildOpening, planText } from './prose.js';
import { pageFile, pageTitle, renderCss, renderIndex, renderPage } from './site-files.js';
import { Timeline, type RunScript } from './timeline.js';

/** What the agent waits for after a run that asked a question or wrote a plan. */
export type Awaiting = { kind: 'question'; prompt: string } | { kind: 'plan'; prompt: string; revisions: number };

export interface ScriptInput {
  prompt: string;
  mode: 'build' | 'plan';
  siteName: string;
  files: Record<string, string>;
  brief: Brief | null;
  notes: string[];
  awaiting: Awaiting | null;
  /** The session was cleared (cancel_job clearSession): the conversation starts fresh. */
  fresh: boolean;
}

export interface AgentRun {
  script: RunScript;
  /** What the site and the conversation look like once the run succeeded. */
  after: { brief: Brief | null; notes: string[]; awaiting: Awaiting | null };
}

interface Change {
  path: string;
  op: 'added' | 'changed' | 'deleted';
  content: string;
  todo: string;
}

/** A short message that only approves ("Approve the plan and build it.", "yes, go ahead"). */
const APPROVAL = /^(yes|ok|okay|approve[ds]?|go ahead|go|build it|looks good|lgtm|do it|sounds good)\b/i;
const isApproval = (text: string) => APPROVAL.test(text.trim()) && wordCount(text) <= 8;
const LONG_PAGES = ['about', 'contact', 'gallery', 'pricing', 'faq', 'team', 'services', 'events'];

function mergeBrief(base: Brief | null, text: string, siteName: string, long: boolean): Brief {
  const update = readBrief(text, siteName);
  if (!base) return long ? { ...update, pages: [...new Set([...update.pages, ...LONG_PAGES])] } : update;
  const pages = [...new Set([...base.pages, ...update.pages, ...(long ? LONG_PAGES : [])])].filter(
    (p) => !update.removePages.includes(p),
  );
  const dark = update.dark || (base.dark && !/\blight\b/i.test(text));
  return {
    ...base,
    pages,
    removePages: update.removePages,
    color: update.color ?? base.color,
    dark,
    restyle: update.restyle,
  };
}

/** The files a build writes, in order, with the task each one is. */
function plannedChanges(
  input: ScriptInput,
  text: string,
  long: boolean,
): { changes: Change[]; brief: Brief; notes: string[] } {
  const first = !input.files['index.html'];
  const brief = mergeBrief(first ? null : input.brief, text, input.siteName, long);
  const notes = first ? [] : [...input.notes, text];
  const changes: Change[] = [];
  const op = (path: string) => (input.files[path] === undefined ? 'added' : 'changed');
  changes.push({
    path: 'index.html',
    op: op('index.html'),
    content: renderIndex(brief, brief.pages, notes),
    todo: first ? 'Write the home page' : 'Update the home page',
  });
  if (first || brief.restyle)
    changes.push({
      path: 'styles.css',
      op: op('styles.css'),
      content: renderCss(brief),
      todo: first ? 'Write the styles' : 'Restyle the site',
    });
  for (const page of brief.pages) {
    const path = pageFile(page);
    if (input.files[path] === undefined || first)
      changes.push({
        path,
        op: op(path),
        content: renderPage(brief, brief.pages, page),
        todo: `Add the ${pageTitle(page)} page`,
      });
  }
  for (const page of brief.removePages) {
    const path = pageFile(page);
    if (input.files[path] !== undefined)
      changes.push({ path, op: 'deleted', content: '', todo: `Remove the ${pageTitle(page)} page` });
  }
  if (long) {
    for (let i = 1; i <= 6; i++) {
      const path = `sections/part-${String(i).padStart(2, '0')}.html`;
      changes.push({
        path,
        op: op(path),
        content: `<section><h2>Part ${i}</h2><p>${brief.title}</p></section>\n`,
        todo: `Write section ${i} of the home page`,
      });
    }
  }
  return { changes, brief, notes };
}

function describe(c: Change): string {
  const verb = c.op === 'added' ? 'Create' : c.op === 'deleted' ? 'Remove' : 'Update';
  return `${verb} ${c.path} (${c.todo.toLowerCase()})`;
}

function askRun(t: Timeline, input: ScriptInput, text: string, pages: boolean): AgentRun {
  t.say(
    pages ? 'Before I build, one question about the pages.\n' : 'Before I start, I need one fact about the site.\n',
  );
  const question = pages ? 'Which pages should the site have?' : 'What kind of site should this be?';
  const options = pages
    ? ['Just a home page', 'Home, about and contact', 'Home, menu and contact', 'Home, gallery and contact']
    : ['A small business site', 'A portfolio', 'A blog', 'An online shop'];
  t.add('tool_call', { id: t.nextCallId(), name: 'ask_user', input: { question, options } }, 400);
  return finish(t, 'question', 1, {
    brief: input.brief,
    notes: input.notes,
    awaiting: { kind: 'question', prompt: text },
  });
}

function planRun(t: Timeline, input: ScriptInput, text: string, revisions: number, revision?: string): AgentRun {
  t.say('Let me look at the site first.\n');
  t.step('list_files', {}, { ok: true, summary: `${Object.keys(input.files).length} files` }, 600);
  if (input.files['index.html'])
    t.step(
      'read_file',
      { path: 'index.html' },
      { ok: true, summary: `read ${input.files['index.html'].length} bytes` },
      600,
    );
  const { changes, brief } = plannedChanges(input, text, false);
  const steps = changes.map(describe);
  if (revision) steps.push(`Take into account: “${revision}”`);
  t.say(planText(brief, changes, revisions > 0, revision));
  t.add('plan_approval_requested', { steps: steps.length }, 300);
  return finish(t, 'plan', 1, {
    brief: input.brief,
    notes: input.notes,
    awaiting: { kind: 'plan', prompt: text, revisions },
  });
}

function buildRun(t: Timeline, input: ScriptInput, text: string, d: Directives): AgentRun {
  const { changes, brief, notes } = plannedChanges(input, text, d.long);
  const first = !input.files['index.html'];
  t.say(
    buildOpening(
      first
        ? `I'll build ${brief.title}, a ${brief.kind}${brief.pages.length ? ` with ${brief.pages.map(pageTitle).join(', ')} pages` : ''}.`
        : `I'll update ${brief.title}: ${text}`,
      changes,
    ),
  );
  const todos =
    changes.length >= 3 ? changes.map((c, i) => ({ id: `todo_${i + 1}`, title: c.todo, status: 'pending' })) : [];
  const stepMs = d.long ? 6000 : 1500;
  changes.forEach((c, i) => {
    if (todos.length) {
      todos.forEach((td, j) => {
        td.status = j < i ? 'done' : j === i ? 'in_progress' : 'pending';
      });
      t.add('todos', { items: todos.map((td) => ({ ...td })) }, 200);
    }
    if (c.op === 'deleted') {
      t.step('delete_file', { path: c.path }, { ok: true, summary: `deleted ${c.path}` }, stepMs);
      t.add('file_deleted', { path: c.path }, 100, { remove: c.path });
    } else {
      t.step('write_file', { path: c.path }, { ok: true, summary: `wrote ${c.content.length} bytes` }, stepMs);
      t.add('file_changed', { path: c.path, action: c.op === 'added' ? 'created' : 'modified' }, 100, {
        write: { path: c.path, content: c.content },
      });
    }
  });
  if (todos.length) {
    for (const td of todos) td.status = 'done';
    t.add('todos', { items: todos.map((td) => ({ ...td })) }, 200);
  }
  const n = changes.length;
  t.say(
    buildClosing(
      `Done: ${n} file${n === 1 ? '' : 's'} ${first ? 'written' : 'changed'}. Open the preview to have a look, or tell me what to change.`,
    ),
  );
  return finish(t, 'done', 2 + n, { brief, notes, awaiting: null });
}

function failRun(t: Timeline, input: ScriptInput): AgentRun {
  t.say('Working on it.\n');
  const message = 'The page template could not be compiled.';
  t.step('write_file', { path: 'index.html' }, { ok: false, error: message }, 1500);
  const error = {
    code: 'agent_build_failed',
    message: `The agent could not finish: ${message.charAt(0).toLowerCase()}${message.slice(1)}`,
  };
  t.add('error', error, 300);
  const run = finish(t, 'done', 1, { brief: input.brief, notes: input.notes, awaiting: null });
  return { ...run, script: { ...run.script, finalState: 'failed', error } };
}

function finish(t: Timeline, outcome: RunScript['outcome'], credits: number, after: AgentRun['after']): AgentRun {
  t.add('credits_used', { credits }, 200);
  const endAt = t.t + 200;
  return { script: { events: t.events, endAt, finalState: 'succeeded', stalls: t.stalls, credits, outcome }, after };
}

export function scriptRun(input: ScriptInput): AgentRun {
  const { text, directives: d } = parseDirectives(input.prompt);
  const t = new Timeline();
  if (input.fresh) t.say('Starting a fresh conversation.\n');
  const awaiting = input.awaiting;
  let run: AgentRun;
  if (d.stallSeconds > 0) {
    // Stall after the opening words, so a follower sees output, then nothing, then more.
    t.say('Reading your message.\n');
    t.stall(d.stallSeconds);
  }
  if (d.fail) run = failRun(t, input);
  else if (d.ask) run = askRun(t, input, text, true);
  else if (awaiting?.kind === 'question') {
    t.say(`Thanks, going with “${text}”.\n`);
    const combined = `${awaiting.prompt} ${text}`;
    run = input.mode === 'plan' ? planRun(t, input, combined, 0) : buildRun(t, input, combined, d);
  } else if (awaiting?.kind === 'plan' && input.mode === 'build') {
    t.say('Building the approved plan.\n');
    run = buildRun(t, input, isApproval(text) ? awaiting.prompt : `${awaiting.prompt} ${text}`, d);
  } else if (awaiting?.kind === 'plan') {
    run = planRun(t, input, `${awaiting.prompt} ${text}`, awaiting.revisions + 1, text);
  } else if (wordCount(text) < 4) run = askRun(t, input, text, false);
  else run = input.mode === 'plan' ? planRun(t, input, text, 0) : buildRun(t, input, text, d);
  if (d.reset) {
    // Halfway through, the service replays the run's events from the start (get_job reset true).
    const mid = run.script.events[Math.floor(run.script.events.length / 2)];
    run.script.resetAt = mid.at + 1;
  }
  return run;
}
