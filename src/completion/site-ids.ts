// Where bash's and zsh's completion find the site ids the CLI saw lately: the configuration
// directory and the profile in force, found as the CLI finds them (src/config/), so that the
// two scripts cannot disagree with it or with each other. Reading the files is each shell's own.

/**
 * The opening of the `${fn}_sites` function, up to the local `profile` (the profile given on
 * the command line, kept in `profileVar`, else SITEBUILDER_PROFILE) and the other `locals`.
 */
export function sitesFunctionHead(fn: string, profileVar: string, locals: string): string {
  return [
    '# The site ids the CLI saw lately for the profile in force (--profile, SITEBUILDER_PROFILE, the',
    '# current profile of config.json, else default), from <config dir>/site-ids: profile<TAB>id<TAB>name.',
    `${fn}_sites() {`,
    '  # Only an absolute XDG_CONFIG_HOME counts (the XDG spec), as for the CLI.',
    '  local base=$XDG_CONFIG_HOME',
    '  [[ $base == /* ]] || base=$HOME/.config',
    `  local dir=\${SITEBUILDER_CONFIG_DIR:-$base/sitebuilder}`,
    `  local profile=\${${profileVar}:-$SITEBUILDER_PROFILE} ${locals}`,
  ].join('\n');
}
