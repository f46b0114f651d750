#!/usr/bin/env bash
# upstream-all.sh GSD TOOLS TREES: `gsd progress --json` against upstream GSD's
# `gsd-tools.cjs roadmap analyze` (TOOLS; bench.sh says how to fetch it) on every project
# directory in TREES (the real projects corpus/real.sh lays out), each on a scratch copy:
# medians of 15 runs each, and their ratio.
set -eu
[ $# -eq 3 ] || { echo "usage: upstream-all.sh GSD TOOLS TREES" >&2; exit 2; }
gsd=$1 tools=$2 trees=$3
w=$(mktemp -d)
for t in "$trees"/*/; do
  n=$(basename "$t")
  cp -a "$t" "$w/$n"
  hyperfine -N --warmup 3 --runs 15 --export-json "$w/$n.json" \
    "$gsd -C $w/$n progress --json" "node $tools --cwd $w/$n roadmap analyze" >/dev/null 2>&1 || { echo "$n: failed"; continue; }
  python3 - "$w/$n.json" "$n" <<'PY'
import json,sys
d=json.load(open(sys.argv[1]))['results']
g,u=d[0]['median'],d[1]['median']
print(f"{sys.argv[2]:16} gsd {g*1000:6.2f} ms  upstream {u*1000:7.1f} ms  ratio {u/g:5.1f}x")
PY
done
rm -rf "$w"
