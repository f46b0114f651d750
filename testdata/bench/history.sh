#!/usr/bin/env bash
# Whole-process timings of the session history: mark-complete with the journal and without it
# (journal: false in .planning/config.json), and, when a second binary is given, that binary's
# mark-complete (such as a build without the journal); then gsd log and gsd tasks --at on a
# generated journal of 10,000 events. Needs hyperfine.
# Usage: history.sh GSD [BASELINE-GSD]
set -euo pipefail
gsd=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
base=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (apt-get install hyperfine)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Binaries are timed as copies, as bench.sh times them: a file the linker has just written is
# slower to start than the same bytes copied into place.
cp "$gsd" "$work/gsd" && gsd=$work/gsd
if [ -n "$base" ]; then cp "$base" "$work/base-gsd" && base=$work/base-gsd; fi
export GSD_USER=bench SOURCE_DATE_EPOCH=1770112800

# Two copies of the demo project, one with the journal off.
for p in on off; do
  cp -R "$here/../demo" "$work/$p"
  (cd "$work/$p" && git init -q)
  "$gsd" -C "$work/$p" hydrate >/dev/null
done
echo '{"gsd": {"journal": false}}' > "$work/off/.planning/config.json"
runs=(-n 'mark-complete, journal' --prepare "$gsd -C $work/on mark-pending 1" "$gsd -C $work/on mark-complete 1"
      -n 'mark-complete, journal: false' --prepare "$gsd -C $work/off mark-pending 1" "$gsd -C $work/off mark-complete 1")
if [ -n "$base" ]; then
  cp -R "$here/../demo" "$work/base"
  (cd "$work/base" && git init -q)
  "$base" -C "$work/base" hydrate >/dev/null
  runs+=(-n 'mark-complete, baseline binary' --prepare "$base -C $work/base mark-pending 1" "$base -C $work/base mark-complete 1")
fi
hyperfine -N --warmup 10 --runs 200 "${runs[@]}"

# A journal of 10,000 events.
(cd "$here/../.." && go run ./testdata/bench/genjournal "$work/on/.planning/sessions/bench" 10000)
unset SOURCE_DATE_EPOCH
hyperfine -N --warmup 5 --runs 100 \
  -n 'log (10,000 events)' "$gsd -C $work/on log" \
  -n 'log --task 2 --json' "$gsd -C $work/on log --task 2 --json" \
  -n 'tasks --at 9000' "$gsd -C $work/on tasks --at 9000" \
  -n 'tasks (no journal read)' "$gsd -C $work/on tasks"
