# zsh -f zsh-complete.zsh <fpath-dir> <out-file> <line>...
# Completes each line in a real interactive zsh (compinit, the script autoloaded from
# <fpath-dir>) driven through zpty, and appends to <out-file> the words offered for each line,
# one a line, each line's words followed by "--done--".
zmodload zsh/zpty || exit 3
# Waiting reads the file and sleeps with builtins (zsh/zselect): no grep or sleep started a poll.
zmodload zsh/zselect || exit 3
local dir=$1 out=$2
shift 2
: >| $out
# With ZCOMPDUMP set, compinit keeps its table of completion functions in that file, made by the
# first zsh and read by the next (reading them all takes a third of a CPU second); else none.
local -a dump=(-D)
[[ -n $ZCOMPDUMP ]] && dump=(-d $ZCOMPDUMP)
zpty z zsh -f -i
zpty -w z "PROMPT=''; fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u ${(q)dump[@]}"
zpty -w z "compadd() { local -a h; builtin compadd -O h \"\$@\"; print -rl -- \$h >> ${(q)out}; builtin compadd \"\$@\"; }"
zpty -w z "__done() { print -r -- '--done--' >> ${(q)out} }"
local line i n=0
local -a done_lines
for line in "$@"; do
  (( n++ ))
  # compsys empties comppostfuncs after each completion: set it again for every line.
  zpty -w z 'comppostfuncs=( __done )'
  zpty -w -n z "$line"$'\t'
  for i in {1..200}; do
    done_lines=(${(M)${(f)"$(<$out)"}:#--done--})
    (( ${#done_lines} >= n )) && break
    zselect -t 2
  done
  # Clear the edited line (and any list shown) before the next one.
  zpty -w -n z $'\C-e\C-u'
done
zpty -d z
