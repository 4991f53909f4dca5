// The walk over the words before the cursor, the same in bash and zsh: options are skipped
// with their values (a --profile's value kept, for the profile's site ids), and the first
// words that name a command move down the tree; what is left is counted as positionals. The
// shells differ only in their names for things, their loop, and bash's own `=` words.
export interface WalkNames {
  /** The loop over the words before the cursor, `for …; do`. */
  loop: string;
  /** The prefix of the generated variables: `__sb_` (bash), `sb_` (zsh). */
  vars: string;
  /** The variable holding the command's path in the tree. */
  path: string;
  /** What `--` ends the completion with: `return`, `return 1`. */
  stop: string;
  /** Without bash-completion, bash makes `=` a word of its own (`--profile = NAME`). */
  equalsWords: boolean;
  /** Arithmetic as the shell's scripts write it: `((x))` or `(( x ))`. */
  spaced: boolean;
}

/** The loop of the completion function `fn` (its _spec and _child helpers), indented by two. */
export function wordWalk(fn: string, n: WalkNames): string {
  const math = (e: string) => (n.spaced ? `(( ${e} ))` : `((${e}))`);
  const v = n.vars;
  return [
    `  ${n.loop}`,
    `    w=\${words[i]}`,
    `    if ${math('skip')}; then`,
    ...(n.equalsWords
      ? [
          "      # Without bash-completion, --profile = NAME: the value is the word after '='.",
          '      [[ $w == = ]] && continue',
        ]
      : []),
    '      skip=0',
    `      [[ $vflag == -p || $vflag == --profile ]] && ${v}profile=$w`,
    '      continue',
    '    fi',
    ...(n.equalsWords ? ['    [[ $w == = ]] && { skip=1; continue; }'] : []),
    `    [[ $w == -- ]] && ${n.stop}`,
    '    if [[ $w == -* ]]; then',
    `      ${fn}_spec "$${n.path}"`,
    '      vflag=$w',
    `      [[ $w == --profile=* ]] && ${v}profile=\${w#--profile=}`,
    `      [[ $w != *=* && ( $${v}vflags == *" $w "* || $${v}global_vflags == *" $w "* ) ]] && skip=1`,
    '      continue',
    '    fi',
    `    if ${math('positionals == 0')}; then`,
    `      ${fn}_child "$${n.path}" "$w"`,
    `      if [[ -n $${v}next ]]; then ${n.path}=$${v}next; continue; fi`,
    '    fi',
    `    ${math('++positionals')}`,
    '  done',
  ].join('\n');
}
