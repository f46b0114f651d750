#!/usr/bin/env bash
# Whole-process timings: the static gsd binary's `hydrate` on a generated project, next to the
# specification's shell pipeline and a Go hello-world's process start. Needs hyperfine.
set -euo pipefail
gsd=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
command -v hyperfine >/dev/null || { echo "bench: hyperfine is needed (apt-get install hyperfine)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A project of 10 phases x 8 plans; phase 10 in progress with its plans 01-03 done.
proj=$work/proj
mkdir -p "$proj/.planning/phases"
{
  echo "# Roadmap"; echo; echo "| Phase | Plans Complete | Status | Completed |"; echo "|---|---|---|---|"
  for p in $(seq 1 10); do
    if [ "$p" -lt 10 ]; then echo "| $p. Phase $p | 8/8 | Complete | 2026-01-01 |"; else echo "| $p. Phase $p | 3/8 | In progress | - |"; fi
  done
} > "$proj/.planning/ROADMAP.md"
for p in $(seq -w 1 10); do
  d=$proj/.planning/phases/$p-phase-$p
  mkdir -p "$d"
  for n in $(seq -w 1 8); do
    { echo "---"; echo "phase: $p"; echo "plan: $n"; echo "---"; echo; echo "<tasks>"
      for t in 1 2 3 4 5; do
        printf '<task type="auto">\n  <name>Task %s: step %s</name>\n  <files>src/f%s.go</files>\n  <action>Do `a && b` with Map<K, V>.</action>\n  <verify>go test ./...</verify>\n  <done>ok</done>\n</task>\n' "$t" "$t" "$t"
      done
      echo "</tasks>"; } > "$d/$p-$n-PLAN.md"
    if [ "$p" -lt 10 ] || [ "$n" -le 03 ]; then echo "# done" > "$d/$p-$n-SUMMARY.md"; fi
  done
done
(cd "$proj" && git init -q && git config user.name "Bench User")
GSD_USER= "$gsd" -C "$proj" hydrate >/dev/null          # bootstrap 10-04 for bench-user
GSD_USER= "$gsd" -C "$proj" mark-complete 1 >/dev/null
GSD_USER= "$gsd" -C "$proj" mark-in-progress 2 >/dev/null

# A Go hello-world, built the same way, for the process-start floor.
mkdir -p "$work/hello" && cat > "$work/hello/main.go" <<'GO'
package main

import "fmt"

func main() { fmt.Println("2") }
GO
(cd "$work/hello" && cat > go.mod <<'MOD'
module hello
go 1.22
MOD
CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$work/hello/hello" .)

echo "shell says: $(cd "$proj" && bash "$here/spec-hydrate.sh")   gsd says: $(GSD_USER= "$gsd" -C "$proj" hydrate --porcelain)"
cd "$proj"
GSD_USER= hyperfine -N --warmup 20 --runs 300 \
  -n 'spec shell pipeline' "bash $here/spec-hydrate.sh" \
  -n 'gsd hydrate' "$gsd hydrate --porcelain" \
  -n 'gsd hydrate --no-bootstrap' "$gsd hydrate --no-bootstrap --porcelain" \
  -n 'go hello-world' "$work/hello/hello"
