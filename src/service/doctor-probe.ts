// What `sitebuilder doctor` asks the model of the answers it read (docs/real-service.md "For
// doctor"): for each field of the catalogue, over the records of one answer, where it was found
// and in how many of them. The fields of a run's events are each looked for in the events of the
// kinds they are read from, as the readers of events.ts read them: a task's fields in the items
// of a task list, what a step works on in the step's input, the question only in an ask_user step.
import { type CatalogueEntry, recordsAt } from './catalogue.js';
import { EVENT_DATA } from './events.js';
import { readJobAnswer } from './job.js';
import { readMessage } from './messages.js';
import { type Field, isRecord, isUnread, locate, recordOf } from './read.js';

/** Where one field was found over the records of one answer. */
export interface FieldProbe {
  /** The records (or events, or tasks) it was looked for in. */
  records: number;
  /** How many of them held it. */
  foundIn: number;
  /** The first path that held it, as the answer spells it; null when none did. */
  found: string | null;
  /** Every distinct path it was found at (a service may place it differently in two records). */
  paths: string[];
}

function probeField(
  f: Field<unknown>,
  records: readonly unknown[],
  prefix: (i: number) => string = () => '',
): FieldProbe {
  const paths: string[] = [];
  let foundIn = 0;
  records.forEach((r, i) => {
    const hit = locate(r, f);
    if (!hit) return;
    foundIn++;
    const before = prefix(i);
    const path = hit.path === '.' ? before.replace(/\.$/, '') || '.' : `${before}${hit.path}`;
    if (!paths.includes(path)) paths.push(path);
  });
  return { records: records.length, foundIn, found: paths[0] ?? null, paths };
}

/** Every field of a catalogue entry's resource over the records its answer holds at one place. */
export function probeEntry(
  entry: CatalogueEntry,
  place: CatalogueEntry['from'][number]['at'],
  data: unknown,
): Record<string, FieldProbe> {
  const records = recordsAt(data, place);
  return Object.fromEntries(Object.entries(entry.resource.fields).map(([name, f]) => [name, probeField(f, records)]));
}

type EventField = keyof typeof EVENT_DATA.fields;

/** Where each field of an event's data is read from: the event kinds, and inside what. */
export const EVENT_SOURCES: Record<EventField, { kinds: string[]; within?: 'tasks' | 'step input' | 'ask_user' }> = {
  text: { kinds: ['text'] },
  filePath: { kinds: ['file_changed', 'file_deleted'] },
  fileChange: { kinds: ['file_changed'] },
  todoList: { kinds: ['todos'] },
  todoTitle: { kinds: ['todos'], within: 'tasks' },
  todoStatus: { kinds: ['todos'], within: 'tasks' },
  todoKey: { kinds: ['todos'], within: 'tasks' },
  toolName: { kinds: ['tool_call'] },
  toolInput: { kinds: ['tool_call'] },
  toolTarget: { kinds: ['tool_call'], within: 'step input' },
  question: { kinds: ['tool_call'], within: 'ask_user' },
  options: { kinds: ['tool_call'], within: 'ask_user' },
  resultSummary: { kinds: ['tool_result'] },
  credits: { kinds: ['credits_used'] },
  errorMessage: { kinds: ['error'] },
  errorCode: { kinds: ['error'] },
};

/** The fields of a run's events, from get_job's data: for each, where found, over which events. */
export function probeEvents(jobData: unknown): { kinds: Record<string, number>; fields: Record<string, FieldProbe> } {
  const events = readJobAnswer(jobData).events;
  const kinds: Record<string, number> = {};
  for (const e of events) kinds[e.event] = (kinds[e.event] ?? 0) + 1;
  const F = EVENT_DATA.fields;
  const fields: Record<string, FieldProbe> = {};
  for (const [name, f] of Object.entries(F) as Array<[EventField, Field<unknown>]>) {
    const source = EVENT_SOURCES[name];
    const datas = events.filter((e) => source.kinds.includes(e.event)).map((e) => e.data);
    if (source.within === 'tasks') {
      // The tasks of every task list read, each looked at as readTodosEvent looks at it.
      const tasks = datas.flatMap((d) => {
        const list = locate(d, F.todoList);
        const prefix = `${list?.path === '.' ? '' : list?.path}[].`;
        return (list?.value as unknown[] | undefined)?.map((task) => ({ task, prefix })) ?? [];
      });
      fields[name] = probeField(
        f,
        tasks.map((t) => t.task),
        (i) => tasks[i].prefix,
      );
    } else if (source.within === 'step input') {
      const inputs = datas.map((d) => locate(d, F.toolInput)).filter((l) => l !== undefined);
      fields[name] = probeField(
        f,
        inputs.map((l) => l.value),
        (i) => `${inputs[i].path}.`,
      );
    } else if (source.within === 'ask_user') {
      // The one shape the reference states: data.name `ask_user` (events.ts readQuestion).
      fields[name] = probeField(
        f,
        datas.filter((d) => recordOf(d).name === 'ask_user'),
      );
    } else fields[name] = probeField(f, datas);
  }
  return { kinds, fields };
}

/** The run the first record of a history page names that the model can read, if any. */
export function runInHistory(records: readonly unknown[]): string | undefined {
  for (const raw of records) {
    const run = readMessage(raw).jobId;
    if (!isUnread(run)) return run;
  }
  return undefined;
}

/** The id of each record that shows one under the field's paths, in the service's order. */
export function idsOf(records: readonly unknown[], id: Field<string>): string[] {
  return records.flatMap((r) => {
    const found = isRecord(r) ? locate(r, id)?.value : undefined;
    return found === undefined ? [] : [found];
  });
}
