// The Markdown renderer's entry, loaded with `await import()` only where the agent's text is
// shown on a terminal (the job views, a plan, a question, `message list`): marked never loads in
// the start-up of other commands (docs/architecture.md "Start-up").
export { MarkdownStream } from './stream.js';
export { renderMarkdown, renderMarkdownAsync } from './render.js';
export { renderInline } from './inline-line.js';
export { PLAIN_THEME, themeFor, type Theme } from './theme.js';
