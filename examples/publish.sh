#!/bin/sh
# Send one change to a site and publish it, the way a CI job would: no prompt ever appears,
# stdout is data, and the exit code says what happened.
#
#   ./examples/publish.sh ["the change"]              against the service (SITEBUILDER_TOKEN set)
#   sitebuilder emulator -- ./examples/publish.sh     offline, against a fresh local emulator
#
# Environment: SITEBUILDER_WORKSPACE (default: the first workspace listed), SITEBUILDER_SITE
# (default: the workspace's first site; a new site is created when it has none).
# Needs sitebuilder and jq on PATH.
#
# Exit codes: 0 published, the live address printed on stdout; 10 the agent asked a question;
# 11 a plan waits for approval (both print the command that answers); 8 the change was queued
# behind another run or a wait timed out; otherwise the exit code of the sitebuilder command
# that failed (see `sitebuilder --help`).
set -eu

change=${1:-"Add an opening hours section to the home page, with the hours for every day of the week."}

# Stops the script unless a followed run succeeded: $1 is the exit code of the sitebuilder
# command that followed it, $2 its NDJSON output, whose last line says how the run ended.
check_run() {
  end=$(printf '%s\n' "$2" | tail -n 1)
  case $1 in
    0) return 0 ;;
    10)
      echo "The agent asks: $(printf '%s' "$end" | jq -r '.pending.question')" >&2
      printf '%s' "$end" | jq -r '.pending.options // [] | to_entries[] | "  \(.key + 1). \(.value)"' >&2
      echo "Answer with: $(printf '%s' "$end" | jq -r '.pending.answer | if type == "array" then join("  or  ") else . end')" >&2
      echo "then publish with: sitebuilder publish $site" >&2
      exit 10 ;;
    11)
      echo "A plan waits for approval: $(printf '%s' "$end" | jq -r '.pending.approve') (or $(printf '%s' "$end" | jq -r '.pending.revise'))" >&2
      exit 11 ;;
    8)
      echo "The run of $site is queued or still going; publish once it has finished." >&2
      exit 8 ;;
    *) exit "$1" ;;
  esac
}

# 1. The workspace and the site. A failing command stops the script (set -e) with its exit code.
workspace=${SITEBUILDER_WORKSPACE:-}
if [ -z "$workspace" ]; then
  workspaces=$(sitebuilder workspace list)
  workspace=$(printf '%s\n' "$workspaces" | head -n 1 | cut -f 1)
fi
site=${SITEBUILDER_SITE:-}
if [ -z "$site" ]; then
  sites=$(sitebuilder site list --workspace "$workspace" --limit 1)
  site=$(printf '%s\n' "$sites" | cut -f 1)
fi
if [ -z "$site" ]; then
  echo "Creating a site in $workspace and following its first build…" >&2
  status=0
  created=$(sitebuilder site create --workspace "$workspace" --json \
    --prompt "A one-page site for a neighbourhood bakery: the menu, the address and a contact form.") || status=$?
  site=$(printf '%s\n' "$created" | head -n 1 | jq -r '.site._id // empty')
  [ -n "$site" ] || exit "$status"
  echo "Created site $site" >&2
  check_run "$status" "$created"
fi
echo "Site $site in workspace $workspace" >&2

# 2. The change: chat follows the run and prints NDJSON (exit 10 question, 11 plan).
status=0
run=$(sitebuilder chat "$site" "$change" --json) || status=$?
check_run "$status" "$run"

# 3. Publish and wait until it is live (exit 8 if it takes longer than the timeout).
url=$(sitebuilder publish "$site" --timeout 10m)
echo "Published $site" >&2
printf '%s\n' "$url"
