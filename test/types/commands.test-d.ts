// Type tests of the commands' options (run by `tsc --noEmit`): the named types that helpers take
// are the ones the definitions give run(), and a hand-written copy that drifts is caught.
import { expectTypeOf } from 'vitest';
import type { call as api } from '../../src/commands/api/call.js';
import type { chat } from '../../src/commands/chat/chat.js';
import type { doctor } from '../../src/commands/doctor/index.js';
import type { ChatOptions, ChoosePlaceholder } from '../../src/commands/chat/options.js';
import type { emulator } from '../../src/commands/emulator/index.js';
import type { EmulatorOptions } from '../../src/commands/emulator/flags.js';
import type { publishCommand } from '../../src/commands/publish/publish.js';
import type { PublishOptions } from '../../src/commands/publish/options.js';
import type { list as siteList } from '../../src/commands/site/list.js';
import type { FieldInput } from '../../src/commands/api/fields.js';
import type { ListingPattern } from '../../src/api/registry-terms.js';
import type { GlobalOptions } from '../../src/context.js';
import type { OptionsOf } from '../../src/core/define.js';
import type { GlobalFlags } from '../../src/core/global-options.js';

// The types the implementations loaded later take are the definitions' own.
expectTypeOf<PublishOptions>().toEqualTypeOf<OptionsOf<typeof publishCommand>>();
expectTypeOf<ChatOptions>().toEqualTypeOf<OptionsOf<typeof chat>>();
expectTypeOf<EmulatorOptions>().toEqualTypeOf<OptionsOf<typeof emulator>>();

// What they hold, read from the flags.
expectTypeOf<OptionsOf<typeof siteList>>().toEqualTypeOf<{ workspace?: string; limit?: number; all?: true }>();
// The interface doctor was written with, now read from its definition.
expectTypeOf<OptionsOf<typeof doctor>>().toEqualTypeOf<{ site?: string; workspace?: string; job?: string }>();
expectTypeOf<PublishOptions['wait']>().toEqualTypeOf<boolean | undefined>();
expectTypeOf<PublishOptions['sites']>().toEqualTypeOf<string[]>();
expectTypeOf<ChatOptions['follow']>().toEqualTypeOf<boolean>();
// A placeholder (--choose N) is kept as such, to be refused listing the answers (chat/run.ts).
expectTypeOf<ChatOptions['choose']>().toEqualTypeOf<number | ChoosePlaceholder | undefined>();
expectTypeOf<EmulatorOptions['port']>().toEqualTypeOf<number>();
expectTypeOf<EmulatorOptions['host']>().toEqualTypeOf<string>();
expectTypeOf<OptionsOf<typeof api>['pattern']>().toEqualTypeOf<ListingPattern | undefined>();
expectTypeOf<OptionsOf<typeof api>['field']>().toEqualTypeOf<FieldInput[] | undefined>();

// The hand-written interface site list had before, plus a flag it never declared: caught.
interface DriftedListOptions {
  workspace?: string;
  limit?: number;
  all?: boolean;
  sort?: string;
}
// @ts-expect-error: --sort is declared nowhere, and --all is only ever true
expectTypeOf<OptionsOf<typeof siteList>>().toEqualTypeOf<DriftedListOptions>();
// A helper naming a flag the definition does not have fails too.
// @ts-expect-error: site list has no --sort
type _Sort = Pick<OptionsOf<typeof siteList>, 'sort'>;

// Every global flag has a home in ctx.globals, but --no-markdown, which sets io.markdown (core/run.ts).
expectTypeOf<keyof GlobalOptions>().toEqualTypeOf<Exclude<keyof GlobalFlags, 'markdown'>>();
