#!/bin/sh
# Send one change to a site and publish it, the way a CI job would: no prompt ever appears,
# stdout is data, and the exit code says what happened.
#
#   $ SITEBUILDER_SITE=site_bakery sitebuilder emulator -- ./examples/publish.sh
#       offline, against a fresh local emulator: prints the live address, exit 0
#   $ SITEBUILDER_SITE=site_bakery ./examples/publish.sh "Add a page with our opening hours."
#       against the service your profile points at (`sitebuilder auth login`), or at
#       SITEBUILDER_BASE_URL with SITEBUILDER_TOKEN; name a site of yours: exit 0
#
# (test/e2e/docs-examples.test.ts runs both lines as written, against an emulator.)
#
# Environment: SITEBUILDER_SITE, the site to change; or SITEBUILDER_WORKSPACE, its workspace
# when that holds exactly one site (a new site is created when it has none). Left out, the
# token's only workspace is used. The script never takes "the first" of a list: the service
# does not say in which order it lists workspaces or sites, so when there is a choice it stops
# (exit 2) and lists what it could pick.
# Needs sitebuilder and jq on PATH.
#
# Exit codes: 0 published, the live address printed on stdout; 1 also when the publish is live
# but its address cannot be read (stdout then stays empty and stderr says so); 2 no site named and more than one to choose
# from; 10 the agent asked a question; 11 a plan waits for approval (both print the command that
# answers); 8 the change was queued behind another run or a wait timed out; otherwise the exit
# code of the sitebuilder command that failed (see `sitebuilder --help`).
set -eu

change=${1:-"Add an opening hours section to the home page, with the hours for every day of the week."}

# Stops the script unless a followed run succeeded: $1 is the exit code of the sitebuilder
# command that followed it, $2 its NDJSON output, whose last line says how the run ended.
check_run() {
  end=$(printf '%s\n' "$2" | tail -n 1)
  case $1 in
    0) return 0 ;;
    10)
      # pending.answer holds one command per suggested answer, in their order, then the --answer one.
      echo "The agent asks: $(printf '%s' "$end" | jq -r '.pending.question') Answer with one of:" >&2
      printf '%s' "$end" | jq -r '.pending as $p | ($p.options // []) | to_entries[] | "  \(.key + 1). \(.value)\n    \($p.answer[.key])"' >&2
      echo "  Or in your own words (in place of …):" >&2
      echo "    $(printf '%s' "$end" | jq -r '.pending.answer | if type == "array" then last else . end')" >&2
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

# Lists the tab-separated rows $2 (id, name, …) on stderr under the sentence $1, then exits 2.
choose() {
  echo "$1" >&2
  printf '%s\n' "$2" | cut -f 1,2 | sed 's/^/  /' >&2
  exit 2
}

# 1. The workspace and the site, named or the only one there is. A failing command stops the
#    script (set -e) with its exit code.
workspace=${SITEBUILDER_WORKSPACE:-}
site=${SITEBUILDER_SITE:-}
if [ -z "$site" ] && [ -z "$workspace" ]; then
  workspaces=$(sitebuilder --quiet workspace list)
  case $(printf '%s' "$workspaces" | grep -c . || true) in
    0) echo "This token reaches no workspace." >&2; exit 2 ;;
    1) workspace=$(printf '%s\n' "$workspaces" | cut -f 1) ;;
    *) choose "Name the site to change with SITEBUILDER_SITE, or its workspace with SITEBUILDER_WORKSPACE; this token reaches:" "$workspaces" ;;
  esac
fi
if [ -z "$site" ]; then
  sites=$(sitebuilder --quiet site list --workspace "$workspace" --limit 20)
  case $(printf '%s' "$sites" | grep -c . || true) in
    0) ;;
    1) site=$(printf '%s\n' "$sites" | cut -f 1) ;;
    *) choose "Name the site to change with SITEBUILDER_SITE; workspace $workspace has:" "$sites" ;;
  esac
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
echo "Site $site${workspace:+ in workspace $workspace}" >&2

# 2. The change: chat follows the run and prints NDJSON (exit 10 question, 11 plan). --yes: a CI
#    machine remembers no run of the site, so sitebuilder cannot tell whether a question or plan
#    of an earlier run waits there (docs/real-service.md "What waits on a site"); without --yes
#    it would send nothing and exit 5. With it the change is sent, and if something did wait,
#    the agent takes the change as the reply.
status=0
run=$(sitebuilder chat "$site" "$change" --yes --json) || status=$?
check_run "$status" "$run"

# 3. Publish and wait until it is live (exit 8 if it takes longer than the timeout). stdout is
#    the live address; the script stops (exit 1) when its address cannot be read.
url=$(sitebuilder publish "$site" --timeout 10m)
echo "Published $site" >&2
printf '%s\n' "$url"
