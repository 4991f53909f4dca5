// The command tree: one entry per noun, loaded only when it runs. `sitebuilder site list`
// loads the site noun and nothing else (start-up budget); help, completion and the JSON
// reference load them all. A noun's index.ts wires its verbs; a test keeps the names and
// aliases here equal to its definition's.
import type { AnyCommandDefinition } from './define.js';

export interface NounEntry {
  name: string;
  aliases: readonly string[];
  load(): Promise<AnyCommandDefinition>;
}

const noun = (name: string, aliases: readonly string[], load: () => Promise<AnyCommandDefinition>): NounEntry => ({
  name,
  aliases,
  load,
});

export const NOUNS: readonly NounEntry[] = [
  noun('auth', [], async () => (await import('../commands/auth/index.js')).auth),
  noun('workspace', ['workspaces'], async () => (await import('../commands/workspace/index.js')).workspace),
  noun('site', ['sites'], async () => (await import('../commands/site/index.js')).site),
  noun('chat', [], async () => (await import('../commands/chat/index.js')).chat),
  noun('job', ['jobs'], async () => (await import('../commands/job/index.js')).job),
  noun('message', ['messages'], async () => (await import('../commands/message/index.js')).message),
  noun('queue', [], async () => (await import('../commands/queue/index.js')).queue),
  noun('upload', [], async () => (await import('../commands/upload/index.js')).upload),
  noun('publish', [], async () => (await import('../commands/publish/index.js')).publish),
  noun('backup', ['backups'], async () => (await import('../commands/backup/index.js')).backup),
  noun('code-backup', ['code-backups'], async () => (await import('../commands/code-backup/index.js')).codeBackup),
  noun(
    'storage-backup',
    ['storage-backups'],
    async () => (await import('../commands/storage-backup/index.js')).storageBackup,
  ),
  noun('storage-restore', [], async () => (await import('../commands/storage-restore/index.js')).storageRestore),
  noun('email', [], async () => (await import('../commands/email/index.js')).email),
  noun('api', [], async () => (await import('../commands/api/index.js')).api),
  noun('tools', [], async () => (await import('../commands/tools/index.js')).tools),
  noun('openapi', [], async () => (await import('../commands/openapi/index.js')).openapi),
  noun('doctor', [], async () => (await import('../commands/doctor/index.js')).doctor),
  noun('completion', [], async () => (await import('../commands/completion/index.js')).completion),
  noun('emulator', [], async () => (await import('../commands/emulator/index.js')).emulator),
  noun('demo', [], async () => (await import('../commands/demo/index.js')).demo),
];

export function findNoun(word: string | undefined): NounEntry | undefined {
  return word === undefined ? undefined : NOUNS.find((n) => n.name === word || n.aliases.includes(word));
}

/** Every noun's definition, in the order of the tree. */
export function loadCommands(): Promise<AnyCommandDefinition[]> {
  return Promise.all(NOUNS.map((n) => n.load()));
}
