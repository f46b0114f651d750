#!/usr/bin/env bash
# bench.sh GSD [spec|hydrate|upstream|hooks|capture]...: whole-process timings of the static gsd binary,
# each comparison measured by one hyperfine invocation so that its ratio comes from one run; the
# targets of hydrate and hooks are then judged on paired runs (testdata/bench/paired: the two
# commands alternate, and the ratio is the median of the per-pair ratios), since on a machine whose
# speed drifts two separate series of runs can be 10-20% apart for the same binary:
#   spec      `gsd hydrate` next to the specification's shell pipeline (testdata/bench/spec-hydrate.sh)
#   hydrate   `gsd hydrate --porcelain` (a valid session) on 10 and on 1,000 finished phases, and
#             a static Go hello-world's process start as the floor
#   upstream  `gsd progress --json` against upstream GSD's `gsd-tools.cjs roadmap analyze` on
#             scratch copies of the largest corpus tree ($GSD_CORPUS/cipher-box)
#   hooks     each lifecycle hook (session-start, pre-compact, session-end), fed the JSON Claude
#             Code writes, against `gsd --version`, on the 10-phase project with a valid session
#             (hyperfine's shell mode, for the redirection; it subtracts the shell's own time)
#   capture   the agent-context capture on a 200 MB Claude Code transcript (made by gentranscript):
#             Stop with 1 MB appended since the last read, with nothing appended, with no read
#             remembered (the last 1 MiB), and SessionEnd with 1 MB appended, against
#             `gsd --version` (paired; before each run the capture's record is put back as it was)
# With no section named, all five run; a summary of the ratios ends the output.
# Needs hyperfine, go, git, and for `upstream` node, npm (the package is fetched with `npm pack` into
# a scratch directory at every run) and GSD_CORPUS (relative to the repository root, or absolute:
# GSD_CORPUS=../shared/corpus). The summary is computed
# with node when it is present, else python3 (BENCH_JSON=python3 chooses). make bench is not run in CI.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bench.sh GSD [spec|hydrate|upstream|hooks|capture]..." >&2; exit 2; }
gsd=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
sections=${*:-spec hydrate upstream hooks capture}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
upstream_pkg=get-shit-done-cc@1.37.1
corpus=${GSD_CORPUS:-}
case $corpus in "" | /*) ;; *) corpus=$root/$corpus ;; esac
corpus=${corpus:+$corpus/cipher-box}

die() { echo "bench: $*" >&2; exit 1; }
want() { case " $sections " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
for s in $sections; do
  case $s in spec | hydrate | upstream | hooks | capture) ;; *) die "unknown section $s (spec, hydrate, upstream, hooks, capture)" ;; esac
done
command -v hyperfine >/dev/null || die "hyperfine is needed (apt-get install hyperfine)"
if want upstream; then
  command -v node >/dev/null || die "node is needed for the upstream comparison (apt-get install nodejs npm)"
  command -v npm >/dev/null || die "npm is needed for the upstream comparison (apt-get install npm)"
  [ -n "$corpus" ] || die "the upstream comparison needs GSD_CORPUS (GSD_CORPUS=../shared/corpus)"
  [ -d "$corpus/.planning" ] || die "the corpus tree $corpus is missing"
fi
json=${BENCH_JSON:-} # node or python3, to choose
if [ -n "$json" ]; then command -v "$json" >/dev/null || die "BENCH_JSON=$json is not on PATH"
elif command -v node >/dev/null; then json=node
elif command -v python3 >/dev/null; then json=python3
else die "node or python3 is needed to read hyperfine's JSON for the summary"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every binary timed is copied into place first, as an installer does: a file the Go linker has
# just written sits in the page cache as small pages, and each exec of it costs some 0.3 ms more
# than of the same bytes copied (or read back from disk). gsd and the hello-world floor alike.
cp "$gsd" "$work/gsd" && gsd=$work/gsd
summary=$work/summary.txt
: > "$summary"
if want hydrate || want hooks || want capture; then
  (cd "$root" && go build -o "$work/paired" ./testdata/bench/paired) || die "cannot build testdata/bench/paired"
fi

# pair NAME-A CMD-A NAME-B CMD-B TARGET [STDIN [PREP]]: one summary line from paired runs, A over
# B; PREP runs, untimed, before each run of A.
pair() {
  "$work/paired" -n "${BENCH_PAIRS:-300}" -a "$1=$2" -b "$3=$4" -target "$5" ${6:+-stdin "$6"} ${7:+-prep "$7"} >> "$summary"
}

# ratio EXPORT NAME-A NAME-B TARGET: one summary line, A's time over B's from one hyperfine export.
ratio() {
  local code
  if [ "$json" = node ]; then
    code='const [f,a,b,t]=process.argv.slice(1);const r=JSON.parse(require("fs").readFileSync(f)).results;
const g=n=>{const x=r.find(y=>y.command===n);if(!x)throw new Error("no result "+n);return x};
const A=g(a),B=g(b),f3=x=>(x*1000).toFixed(3);
const r2=(x,y)=>(x/y).toFixed(2);
console.log(`${r2(A.mean,B.mean).padStart(7)}x  median ${r2(A.median,B.median)}x  min ${r2(A.min,B.min)}x  cpu ${r2(A.user+A.system,B.user+B.system)}x  ${a} ${f3(A.mean)} ms / ${b} ${f3(B.mean)} ms  target ${t}`)'
    node -e "$code" "$@" >> "$summary"
  else
    code='import json,sys
f,a,b,t=sys.argv[1:]
r={x["command"]:x for x in json.load(open(f))["results"]}
A,B=r[a],r[b]
q=lambda k:A[k]/B[k]
print("%7.2fx  median %.2fx  min %.2fx  cpu %.2fx  %s %.3f ms / %s %.3f ms  target %s"%(q("mean"),q("median"),q("min"),(A["user"]+A["system"])/(B["user"]+B["system"]),a,A["mean"]*1e3,b,B["mean"]*1e3,t))'
    python3 -c "$code" "$@" >> "$summary"
  fi
}

if want spec || want hydrate || want hooks || want capture; then
  # The per-turn case: a valid session (bootstrapped, one task complete, one in progress).
  sizes=10
  if want hydrate; then sizes="10 1000"; fi
  for n in $sizes; do
    echo "bench: generating a project of $n finished phases"
    bash "$here/genproject.sh" "$work/p$n" "$n"
    GSD_USER= "$gsd" -C "$work/p$n" hydrate >/dev/null # bootstraps the in-progress phase's plan 04
    GSD_USER= "$gsd" -C "$work/p$n" mark-complete 1 >/dev/null
    GSD_USER= "$gsd" -C "$work/p$n" mark-in-progress 2 >/dev/null
    out=$(GSD_USER= "$gsd" -C "$work/p$n" hydrate --porcelain)
    echo "bench: p$n hydrate says: $out"
  done
fi

if want spec; then
  echo "shell says: $(cd "$work/p10" && bash "$here/spec-hydrate.sh")   gsd says: $(GSD_USER= "$gsd" -C "$work/p10" hydrate --porcelain)"
  (cd "$work/p10" && GSD_USER= hyperfine -N --warmup 20 --runs 300 --export-json "$work/spec.json" \
    -n 'spec shell pipeline' "bash $here/spec-hydrate.sh" \
    -n 'gsd hydrate' "$gsd hydrate --porcelain" \
    -n 'gsd hydrate --no-bootstrap' "$gsd hydrate --no-bootstrap --porcelain")
  ratio "$work/spec.json" 'spec shell pipeline' 'gsd hydrate' 'informational (spec pipeline over gsd)'
fi

if want hydrate; then
  # A Go hello-world, built as gsd is, for the process-start floor.
  mkdir -p "$work/hello"
  printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("2") }\n' > "$work/hello/main.go"
  printf 'module hello\n\ngo 1.22\n' > "$work/hello/go.mod"
  (cd "$work/hello" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o hello.linked . && cp hello.linked hello)
  GSD_USER= hyperfine -N --warmup 20 --runs ${BENCH_RUNS:-300} --export-json "$work/hydrate.json" \
    -n 'go hello-world' "$work/hello/hello" \
    -n 'hydrate 10' "$gsd -C $work/p10 hydrate --porcelain" \
    -n 'hydrate 1000' "$gsd -C $work/p1000 hydrate --porcelain"
  ratio "$work/hydrate.json" 'hydrate 1000' 'go hello-world' 'informational'
  pair 'hydrate 1000' "$gsd -C $work/p1000 hydrate --porcelain" 'hydrate 10' "$gsd -C $work/p10 hydrate --porcelain" 'informational (paired)'
  pair 'hydrate 10' "$gsd -C $work/p10 hydrate --porcelain" 'go hello-world' "$work/hello/hello" '<= 1.7x (paired)'
fi

if want hooks; then
  # The JSON Claude Code writes to each hook (as recorded in testdata/script/hook_lifecycle.txtar),
  # with the project as cwd. PreCompact makes a snapshot on every run (pruned to the newest few).
  p=$work/p10
  common='"session_id":"5f0c1e9a-7b3d-4d2e-9a61-2c8f4e7b1d30","transcript_path":"'$work'/no-transcript.jsonl","cwd":"'$p'","permission_mode":"default"'
  printf '{%s,"hook_event_name":"SessionStart","source":"resume","model":"claude-sonnet-4-5"}\n' "$common" > "$work/ss.json"
  printf '{%s,"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}\n' "$common" > "$work/pc.json"
  printf '{%s,"hook_event_name":"SessionEnd","reason":"clear"}\n' "$common" > "$work/se.json"
  for h in session-start:ss pre-compact:pc session-end:se; do
    out=$(cd "$p" && GSD_USER= "$gsd" hook "${h%%:*}" < "$work/${h##*:}.json" 2>&1 >/dev/null)
    [ -z "$out" ] || die "gsd hook ${h%%:*} is not silent on stderr: $out"
  done
  (cd "$p" && GSD_USER= hyperfine --warmup 20 --runs ${BENCH_RUNS:-300} --export-json "$work/hooks.json" \
    -n 'gsd --version' "$gsd --version < $work/ss.json" \
    -n 'hook session-start' "$gsd hook session-start < $work/ss.json" \
    -n 'hook pre-compact' "$gsd hook pre-compact < $work/pc.json" \
    -n 'hook session-end' "$gsd hook session-end < $work/se.json")
  for h in session-start:ss pre-compact:pc session-end:se; do
    (cd "$p" && pair "hook ${h%%:*}" "$gsd hook ${h%%:*}" 'gsd --version' "$gsd --version" '<= 1.3x (paired)' "$work/${h##*:}.json")
  done
fi

if want capture; then
  p=$work/p10
  (cd "$root" && go build -o "$work/gentranscript" ./testdata/bench/gentranscript) || die "cannot build testdata/bench/gentranscript"
  t=$work/transcript.jsonl
  echo "bench: generating a 200 MB Claude Code transcript"
  "$work/gentranscript" "$t" 199M "$p"
  "$work/gentranscript" "$work/appended.jsonl" 1M "$p"
  common='"session_id":"5f0c1e9a-7b3d-4d2e-9a61-2c8f4e7b1d30","transcript_path":"'$t'","cwd":"'$p'","permission_mode":"default"'
  printf '{%s,"hook_event_name":"Stop","stop_hook_active":false}\n' "$common" > "$work/stop.json"
  printf '{%s,"hook_event_name":"SessionEnd","reason":"clear"}\n' "$common" > "$work/se-clear.json"
  # The read before: its record, with the cursor at the end of the first 199 MB, is put back
  # before each timed run, so that each reads the same 1 MB appended since.
  out=$(cd "$p" && GSD_USER= "$gsd" hook turn-end < "$work/stop.json" 2>&1) && [ -z "$out" ] || die "gsd hook turn-end: $out"
  record=$(ls "$p"/.git/gsd/agent-context/*.json) && [ -f "$record" ] || die "no capture record under $p/.git/gsd"
  cp "$record" "$work/record-before"
  cat "$work/appended.jsonl" >> "$t"
  echo "bench: transcript $(wc -c < "$t") bytes, $(wc -c < "$work/appended.jsonl") appended since the record's read"
  (cd "$p" && GSD_USER= "$gsd" hook turn-end < "$work/stop.json")
  grep -q '"lastPrompt": "Turn ' "$record" || die "the capture after 1 MB appended has no prompt: $(cat "$record")"
  cp "$record" "$work/record-after"
  (cd "$p" && GSD_USER= pair 'Stop, 1 MB appended' "$gsd hook turn-end" 'gsd --version' "$gsd --version" '<= 2x (paired)' "$work/stop.json" "cp $work/record-before $record")
  (cd "$p" && GSD_USER= pair 'Stop, nothing appended' "$gsd hook turn-end" 'gsd --version' "$gsd --version" '<= 1.3x (paired)' "$work/stop.json" "cp $work/record-after $record")
  (cd "$p" && GSD_USER= pair 'Stop, no read remembered' "$gsd hook turn-end" 'gsd --version' "$gsd --version" 'informational (reads the last 1 MiB)' "$work/stop.json" "rm -f $record")
  (cd "$p" && GSD_USER= pair 'SessionEnd, 1 MB appended' "$gsd hook session-end" 'gsd --version' "$gsd --version" 'far inside 1.5 s (its time is the figure)' "$work/se-clear.json" "cp $work/record-before $record")
fi

if want upstream; then
  echo "bench: fetching $upstream_pkg with npm pack (scratch directory, not kept)"
  mkdir -p "$work/npm"
  (cd "$work/npm" && npm pack --silent "$upstream_pkg" > /dev/null && tar xzf ./*.tgz) ||
    die "npm pack $upstream_pkg failed (is the npm registry reachable?)"
  tools=$work/npm/package/get-shit-done/bin/gsd-tools.cjs
  [ -f "$tools" ] || die "$upstream_pkg has no get-shit-done/bin/gsd-tools.cjs"
  # One scratch copy each, committed so that `reset` can undo anything a run writes.
  for who in gsd upstream; do
    c=$work/cb-$who
    cp -R "$corpus/." "$c" && chmod -R u+w "$c"
    git -C "$c" init -q && git -C "$c" add -A &&
      git -C "$c" -c user.name=bench -c user.email=bench@example.invalid commit -qm corpus
  done
  printf '#!/bin/sh\ngit -C "$1" checkout -q -- . && git -C "$1" clean -qfdx\n' > "$work/reset"
  chmod +x "$work/reset"
  # Upstream's answer must be a real analysis before its time means anything.
  node "$tools" --cwd "$work/cb-upstream" roadmap analyze > "$work/upstream.out" ||
    die "upstream roadmap analyze failed on the corpus copy"
  node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1]));
if(!Array.isArray(d.phases)||d.phases.length<10||!(d.phase_count>0))throw new Error("upstream output is not an analysis");
console.log(`bench: upstream analyze sees ${d.phase_count} phases, ${d.total_plans} plans, ${d.total_summaries} summaries, next phase ${d.next_phase}`)' "$work/upstream.out"
  "$gsd" -C "$work/cb-gsd" progress --json > "$work/gsd.out" || die "gsd progress --json failed on the corpus copy"
  node -e 'const d=JSON.parse(require("fs").readFileSync(process.argv[1]));
console.log(`bench: gsd progress sees ${d.phases.length} phases, ${d.progress.plansTotal} plans, ${d.progress.plansComplete} done`)' "$work/gsd.out"
  for who in gsd upstream; do "$work/reset" "$work/cb-$who"; done
  hyperfine -N --warmup 5 --runs 40 --export-json "$work/upstream.json" \
    --prepare "$work/reset $work/cb-gsd" -n 'gsd progress --json' "$gsd -C $work/cb-gsd progress --json" \
    --prepare "$work/reset $work/cb-upstream" -n 'upstream roadmap analyze' "node $tools --cwd $work/cb-upstream roadmap analyze"
  for who in gsd upstream; do
    changed=$(git -C "$work/cb-$who" status --porcelain | wc -l)
    [ "$changed" -eq 0 ] || echo "bench: $who changed $changed files of its copy during the last run (reset before each run)"
  done
  ratio "$work/upstream.json" 'upstream roadmap analyze' 'gsd progress --json' 'informational (upstream over gsd)'
fi

echo
echo "summary: hyperfine lines: A/B ratio of mean wall time, then of median, of min, of mean user+system CPU"
echo "(-N but for the hooks, one invocation per comparison); paired lines: the median of the per-pair ratios"
echo "of alternating runs, then the ratio of medians and of minimums; the targets are judged on the paired lines:"
cat "$summary"
