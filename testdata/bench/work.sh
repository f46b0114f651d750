#!/usr/bin/env bash
# work.sh GSD: what reading the work's traces (git's newest commits, gsd help session) costs a
# command, as whole-process timings:
#   flat    `gsd hydrate --porcelain` (a valid session) in a repository of 18,000 commits against
#           the same project with 100 commits: the history's length must not show (target ~1x);
#   added   `gsd hydrate --porcelain` with the git evidence against without it (--no-git-evidence),
#           and what that difference is against one `git log -n 100` process of the same
#           arguments on the same repository (target: at most one such process);
#   hook    `gsd hook session-start` likewise, with and without;
#   mark    `gsd mark-complete 1` then `mark-pending 1` in one script each, against the same with
#           --no-git-evidence: mark-* start no process, so ~1x.
# The pairs are timed by testdata/bench/paired (alternating, median of per-pair ratios); the
# absolute medians come from one hyperfine run of the three commands. Needs go, git, hyperfine.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: work.sh GSD" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v hyperfine >/dev/null || { echo "work.sh: hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$1" "$work/gsd" && gsd=$work/gsd
(cd "$root" && go build -o "$work/paired" ./testdata/bench/paired)
pairs=${BENCH_PAIRS:-200}
export GSD_USER=bench GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

# repo DIR N: the demo project, committed, then N commits of work of plan 02-02 and others (a
# fast-import stream: 18,000 commits in a few seconds), and a valid session.
repo() {
  local dir=$1 n=$2
  mkdir -p "$dir" && cp -R "$root/testdata/demo/." "$dir"
  printf '.planning/sessions/\n' > "$dir/.gitignore"
  git -C "$dir" init -q -b main
  git -C "$dir" add -A && git -C "$dir" commit -qm 'docs(02): create phase plans'
  {
    for i in $(seq 1 "$n"); do
      scope=01-01
      [ "$i" -gt $((n - 3)) ] && scope=02-02
      printf 'commit refs/heads/main\ncommitter bench <bench@example.com> %d +0000\ndata <<EOF\nfeat(%s): change %d\nEOF\n' $((1790000000 + i)) "$scope" "$i"
      [ "$i" -eq 1 ] && printf 'from refs/heads/main^0\n'
      printf 'M 644 inline src/f%d.go\ndata <<EOF\npackage src\nEOF\n\n' $((i % 500))
    done
  } | git -C "$dir" fast-import --quiet
  git -C "$dir" reset -q --hard main
  (cd "$dir" && "$gsd" hydrate >/dev/null)
}
repo "$work/p100" 100
repo "$work/p18k" 18000
echo "repositories: $(git -C "$work/p100" rev-list --count HEAD) and $(git -C "$work/p18k" rev-list --count HEAD) commits"

summary=$work/summary.txt
: > "$summary"
pair() { "$work/paired" -n "$pairs" -a "$1=$2" -b "$3=$4" -target "$5" ${6:+-stdin "$6"} >> "$summary"; }

pair p18k "$gsd -C $work/p18k hydrate --porcelain" p100 "$gsd -C $work/p100 hydrate --porcelain" "~1x (flat in history)"
pair with "$gsd -C $work/p18k hydrate --porcelain" without "$gsd -C $work/p18k --no-git-evidence hydrate --porcelain" "the difference at most one git log -n 100"
printf '{"session_id":"bench","hook_event_name":"SessionStart","source":"clear","cwd":"%s"}\n' "$work/p18k" > "$work/hook.json"
pair hook "$gsd hook session-start" hook-without "$gsd --no-git-evidence hook session-start" "the difference at most one git log -n 100" "$work/hook.json"
printf '#!/bin/sh\n"%s" -C "%s" mark-complete 1 >/dev/null && "%s" -C "%s" mark-pending 1 >/dev/null\n' "$gsd" "$work/p18k" "$gsd" "$work/p18k" > "$work/mark.sh"
printf '#!/bin/sh\n"%s" -C "%s" --no-git-evidence mark-complete 1 >/dev/null && "%s" -C "%s" --no-git-evidence mark-pending 1 >/dev/null\n' "$gsd" "$work/p18k" "$gsd" "$work/p18k" > "$work/mark-off.sh"
chmod +x "$work/mark.sh" "$work/mark-off.sh"
pair mark "$work/mark.sh" mark-off "$work/mark-off.sh" "~1x (mark-* start no process)"

# The difference, in milliseconds, against the git log it runs, started as gsd starts it: by a
# Go program (worklog -run, through the same runner) against the same program doing nothing
# (worklog -none). Medians of one hyperfine run of the four.
(cd "$root" && CGO_ENABLED=0 go build -o "$work/worklog.linked" ./testdata/bench/worklog) && cp "$work/worklog.linked" "$work/worklog"
hyperfine -N -w 20 -r "$pairs" --export-json "$work/abs.json" \
  -n with "$gsd -C $work/p18k hydrate --porcelain" \
  -n without "$gsd -C $work/p18k --no-git-evidence hydrate --porcelain" \
  -n gitlog "$work/worklog -run $work/p18k" \
  -n none "$work/worklog -none" >/dev/null 2>&1
python3 - "$work/abs.json" >> "$summary" <<'PY'
import json, sys
r = {x["command"]: x["median"] * 1000 for x in json.load(open(sys.argv[1]))["results"]}
d, g = r["with"] - r["without"], r["gitlog"] - r["none"]
print(f"  medians: added {d:.2f} ms (with {r['with']:.2f} - without {r['without']:.2f}); one git log -n 100 from a Go program {g:.2f} ms ({r['gitlog']:.2f} - {r['none']:.2f}); added / git log = {d / g:.2f}  target <= 1")
PY
cat "$summary"
