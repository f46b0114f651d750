#!/usr/bin/env bash
# genproject.sh DIR PHASES: a generated GSD project of PHASES finished phases (8 plans each, every
# plan with its SUMMARY) and one more phase in progress (plans 01-03 of 8 done), in a git
# repository whose user.name is "Bench User". The roadmap's progress table lists every phase.
set -euo pipefail
dir=$1 n=$2
last=$((n + 1))
mkdir -p "$dir/.planning/phases"

{
  echo "# Roadmap"; echo; echo "| Phase | Plans Complete | Status | Completed |"; echo "|---|---|---|---|"
  for ((p = 1; p <= n; p++)); do echo "| $p. Phase $p | 8/8 | Complete | 2026-01-01 |"; done
  echo "| $last. Phase $last | 3/8 | In progress | - |"
} > "$dir/.planning/ROADMAP.md"

# Every plan has the same five tasks; only its front matter differs.
tasks=$(
  echo "<tasks>"
  for t in 1 2 3 4 5; do
    printf '<task type="auto">\n  <name>Task %s: step %s</name>\n  <files>src/f%s.go</files>\n  <action>Do `a && b` with Map<K, V>.</action>\n  <verify>go test ./...</verify>\n  <done>ok</done>\n</task>\n' "$t" "$t" "$t"
  done
  echo "</tasks>"
)
for ((p = 1; p <= last; p++)); do
  printf -v pp '%02d' "$p"
  d=$dir/.planning/phases/$pp-phase-$p
  mkdir -p "$d"
  for ((k = 1; k <= 8; k++)); do
    printf -v kk '%02d' "$k"
    printf -- '---\nphase: %s\nplan: %s\n---\n\n%s\n' "$pp" "$kk" "$tasks" > "$d/$pp-$kk-PLAN.md"
    if [ "$p" -le "$n" ] || [ "$k" -le 3 ]; then echo "# done" > "$d/$pp-$kk-SUMMARY.md"; fi
  done
done
(cd "$dir" && git init -q && git config user.name "Bench User")
