#!/usr/bin/env bash
# testdata/windows/story.sh: gsd's Windows build, run under Wine, must do what the Linux build
# does. Both builds drive the same story on two copies of one project (testdata/demo, plus the
# overlay here: a plan of eight tasks and a .claude/settings.json), every text file in CRLF, as a
# Windows checkout has them. After every step the two runs must agree: stdout, stderr and exit
# status, and every byte of every file in the project. What may differ, and nothing else:
#
#   1. the project's own path: /.../lin/Mon projet é on Linux, Z:\...\win\Mon projet é on Windows
#      (Wine shows / as drive Z:), and the separators after it (\ on Windows, \\ in JSON);
#      both read <root>;
#   2. .gsd.lock in .planning (and in .claude, .codex, .gemini after a hook edit), on Windows
#      only: there gsd locks that file, as Windows cannot lock a directory;
#   3. after the concurrent marks, the order of their lines in journal.jsonl (and so their seq,
#      hash and prev, the event before each): the race decides it; the journals then compare as
#      sets, and each must replay.
#
# Usage: testdata/windows/story.sh (or make windows). Wine comes from ../shared/windows/wine.sh
# beside the checkout, or the command in GSD_WINE (given a PROGRAM.exe and its arguments); the
# first use installs it. Without it the story is skipped, except in CI (CI set), where that fails.
# KEEP=1 keeps the scratch directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

wine=${GSD_WINE:-../shared/windows/wine.sh}
if [ -z "${GSD_WINE:-}" ] && [ ! -x "$wine" ]; then
	[ -n "${CI:-}" ] && fail "$wine is missing: CI must have shared/ beside the checkout to run gsd under Wine"
	echo "windows story skipped: no $wine (GSD_WINE=CMD names another way to run a .exe)"
	exit 0
fi
case $wine in /*) ;; */*) wine=$repo/$wine ;; esac

work=$(mktemp -d)
keeper_hold=
cleanup() {
	if [ -n "$keeper_hold" ]; then
		kill "$keeper_hold" 2>/dev/null || true # the keeper's stdin ends: it exits
		wait 2>/dev/null || true
	fi
	if [ -n "${KEEP:-}" ] || [ -n "${failed:-}" ]; then
		echo "scratch directory kept: $work" >&2
	else
		rm -rf "$work"
	fi
}
failed=1 # until the end
trap cleanup EXIT
start=$SECONDS

echo "==> building gsd for Linux and gsd.exe for Windows"
CGO_ENABLED=0 go build -trimpath -o "$work/gsd" .
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -trimpath -o "$work/gsd.exe" .

echo "==> starting Wine ($wine; the first run installs it)"
setup=$SECONDS
if ! "$wine" "$work/gsd.exe" --version </dev/null >"$work/wine-setup.log" 2>&1; then
	tail -n 30 "$work/wine-setup.log" >&2
	fail "could not run gsd.exe under Wine (the log's end is above)"
fi
grep -q '^gsd ' "$work/wine-setup.log" || { cat "$work/wine-setup.log" >&2; fail "gsd.exe --version printed no version"; }
echo "    ready in $((SECONDS - setup))s"
# Whenever its server starts, Wine starts services of its own (winedevice.exe, which loads its
# ntoskrnl.exe), and one of them crashes now and then, printing "wine: Unhandled page fault" on
# the stderr of whichever program started it. A gsd.exe kept running through the story (an MCP
# server waiting on a stdin that stays open) keeps the server and its services up, so they start
# once, above, and each step starts faster too.
mkfifo "$work/keeper.fifo"
sleep 100000 >"$work/keeper.fifo" &
keeper_hold=$!
(cd "$work" && exec "$wine" "$work/gsd.exe" mcp <"$work/keeper.fifo" >/dev/null 2>&1) &
story=$SECONDS

# winpath turns an absolute Unix path into the one Windows programs see under Wine.
winpath() { printf 'Z:%s' "${1//\//\\}"; }

# The project, twice: lin/$P for gsd, win/$P for gsd.exe. Its name has a space and a letter
# outside ASCII, as a Windows user's folders often do.
P="Mon projet é"
for side in lin win; do
	mkdir -p "$work/$side"
	cp -R testdata/demo "$work/$side/$P"
	cp -R testdata/windows/overlay/. "$work/$side/$P"
	# CRLF everywhere, as git's autocrlf leaves a Windows checkout.
	find "$work/$side/$P/.planning" -type f -name '*.md' -exec sed -i 's/\r*$/\r/' {} +
done
cp testdata/windows/overlay/.claude/settings.json "$work/settings.orig.json"
grep -q $'\r$' "$work/lin/$P/.planning/ROADMAP.md" || fail "the fixture was not turned into CRLF"

declare -A root native
root[lin]=$work/lin/$P
root[win]=$(winpath "$work/win/$P")
native[lin]=$work/lin
native[win]=$(winpath "$work/win")

# Nothing from the caller's environment may change what gsd does (a CI runner sets
# GITHUB_ACTIONS); the clock is fixed, so snapshot names and journal times agree.
unset GITHUB_ACTIONS GITHUB_STEP_SUMMARY GSD_LOCK_TIMEOUT GSD_IDLE_AFTER GSD_INSTANCE GSD_WORKSTREAM
export GSD_USER=demo SOURCE_DATE_EPOCH=1767225600 NO_COLOR=1 TZ=UTC

# sub SIDE STRING replaces @ROOT@ and @SIDE@ with that side's spelling of the project's path and
# of its parent directory; on Windows the rest of such a path takes backslashes too.
sub() {
	local s=$2
	if [ "$1" = win ] && [[ $s == *@ROOT@* || $s == *@SIDE@* ]]; then s=${s//\//\\}; fi
	s=${s//@ROOT@/${root[$1]}}
	printf '%s' "${s//@SIDE@/${native[$1]}}"
}

# pin_mtimes gives every file of both projects the same modification time, the fixed clock's,
# for the commands that report when a file last changed.
pin_mtimes() { find "$work/lin/$P" "$work/win/$P" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; }

# norm SIDE FILE rewrites FILE's mentions of the project's path as <root> (allowed difference 1).
norm() {
	local r=${root[$1]}
	R=$r RJ=${r//\\/\\\\} perl -pi -e 's/\Q$ENV{RJ}\E([^\s"\x27:,]*)/"<root>".($1 =~ s{\\\\}{\/}gr)/ge; s/\Q$ENV{R}\E([^\s"\x27:,]*)/"<root>".($1 =~ tr{\\}{\/}r)/ge' "$2"
}

# trees compares the two projects file by file (allowed differences 2 and 3).
journal_exact=1
trees() {
	local what=$1 d
	if d=$(diff -r -x .gsd.lock -x journal.jsonl "$work/lin/$P" "$work/win/$P"); then :; else
		echo "$d" | head -n 40 >&2
		fail "$what: the projects differ after it (above: Linux's lines <, Windows' >)"
	fi
	[ ! -e "$work/lin/$P/.planning/.gsd.lock" ] || fail "$what: Linux made .planning/.gsd.lock"
	local j=.planning/sessions/demo/journal.jsonl
	if [ -e "$work/lin/$P/$j" ] || [ -e "$work/win/$P/$j" ]; then
		if [ -n "$journal_exact" ]; then
			cmp -s "$work/lin/$P/$j" "$work/win/$P/$j" ||
				{ diff "$work/lin/$P/$j" "$work/win/$P/$j" >&2; fail "$what: journal.jsonl differs"; }
		else
			diff <(canon_journal "$work/lin/$P/$j") <(canon_journal "$work/win/$P/$j") >&2 ||
				fail "$what: journal.jsonl records other events on Windows than on Linux"
		fi
	fi
}

# canon_journal prints a journal's lines without seq, hash and prev, sorted: its events as a set.
canon_journal() { sed -E 's/"seq":[0-9]+,//; s/,"sha256":"[0-9a-f]*"//; s/"prev":"[0-9a-f]*",//' "$1" | sort; }

# gsd SIDE ARGS... runs gsd on that side: the Linux build, or gsd.exe under Wine; gsdname and
# label name it.
gsd() {
	local side=$1
	shift
	if [ "$side" = lin ]; then "$work/gsd" "$@"; else "$wine" "$work/gsd.exe" "$@"; fi
}
gsdname() { if [ "$1" = lin ]; then echo gsd; else echo gsd.exe; fi; }
label() { if [ "$1" = lin ]; then echo "linux:  "; else echo "windows:"; fi; }

# step TITLE [--in DIR] [--stdin FILE | --pipe FILE] [--env K=V]... -- ARGS... [--win ARGS...]
# runs gsd ARGS on Linux and gsd.exe ARGS (or the --win ARGS) under Wine, each in its project's
# root (or DIR relative to it), with stdin from FILE in each side's directory (default
# /dev/null; --pipe: through a pipe, as an agent feeds it), and compares what they print and
# the projects afterwards.
n=0
step() {
	local title=$1
	shift
	local dir=. stdin= pipe= side
	local -a envs=() largs=() wargs=()
	while [ "$1" != -- ]; do
		case $1 in
		--in) dir=$2 ;;
		--stdin) stdin=$2 ;;
		--pipe) stdin=$2 pipe=1 ;;
		--env) envs+=("$2") ;;
		*) fail "step: unknown option $1" ;;
		esac
		shift 2
	done
	shift
	while [ $# -gt 0 ] && [ "$1" != --win ]; do largs+=("$1") && shift; done
	if [ $# -gt 0 ]; then shift && wargs=("$@"); else wargs=("${largs[@]}"); fi
	n=$((n + 1))
	id=$(printf %02d $n)
	echo "==> $id $title"
	for side in lin win; do
		local -a a=() e=()
		local x rc=0 o=$work/$side/$id in=/dev/null
		if [ $side = lin ]; then
			for x in "${largs[@]}"; do a+=("$(sub lin "$x")"); done
		else
			for x in "${wargs[@]}"; do a+=("$(sub win "$x")"); done
		fi
		for x in ${envs[@]+"${envs[@]}"}; do e+=("$(sub $side "$x")"); done
		echo "    $(label $side) ${e[*]+${e[*]} }$(gsdname $side) ${a[*]}"
		[ -n "$stdin" ] && in=$work/$side/$stdin
		(
			cd "$work/$side/$P/$dir" || exit
			for x in ${e[@]+"${e[@]}"}; do export "${x?}"; done
			if [ -n "$pipe" ]; then
				cat "$in" | gsd $side "${a[@]}" >"$o.out" 2>"$o.err"
			else
				gsd $side "${a[@]}" <"$in" >"$o.out" 2>"$o.err"
			fi
		) || rc=$?
		echo $rc >"$o.rc"
		norm $side "$o.out"
		norm $side "$o.err"
	done
	same "$id $title"
	trees "$id $title"
}

# same WHAT compares the last step's stdout, stderr and exit status.
same() {
	local f
	for f in rc out err; do
		if ! cmp -s "$work/lin/$id.$f" "$work/win/$id.$f"; then
			diff -u --label "linux $f" --label "windows $f" "$work/lin/$id.$f" "$work/win/$id.$f" | head -n 40 >&2
			fail "$1: $f differs between Linux and Windows"
		fi
	done
	echo "    same: exit $(cat "$work/lin/$id.rc"), $(wc -l <"$work/lin/$id.out") lines out, $(wc -l <"$work/lin/$id.err") lines err"
}

# expect FILE-SUFFIX PATTERN: the last step printed something matching PATTERN (so that a
# step that fails alike on both sides does not pass unnoticed).
expect() { grep -qE -- "$2" "$work/lin/$id.$1" || fail "$id: expected /$2/ in its $1; got: $(cat "$work/lin/$id.$1")"; }

plan=.planning/phases/02-task-api/02-04-PLAN.md
session=.planning/sessions/demo/current-plan.md

# --- Sessions: bootstrap, paths, drive letters --------------------------------------------
step "hydrate bootstraps a session from the active plan (CRLF)" -- hydrate
expect out '^Bootstrap: fresh session from .planning/phases/02-task-api/02-02-PLAN.md'
[ -e "$work/win/$P/.planning/.gsd.lock" ] || fail "gsd.exe took no .planning/.gsd.lock: the directory-lock fallback did not run"
echo "    Windows locked .planning/.gsd.lock (the fallback for a directory lock); Linux made none"

step "start PLAN: a relative path with backslashes" \
	-- start $plan \
	--win start '.planning\phases\02-task-api\02-04-PLAN.md'
expect out "^Bootstrap: fresh session from $plan"
grep -q $'status="pending">\r$' "$work/win/$P/$session" || fail "the session lost its CRLF line endings"

step "start PLAN: an absolute path with a drive letter" \
	-- start "@ROOT@/$plan" \
	--win start "@ROOT@\\.planning\\phases\\02-task-api\\02-04-PLAN.md"
expect out "^Kept: +the session already follows $plan"

# Windows matches names regardless of case: the session must record the plan as the disk
# spells it, or it would not name the plan the phase scan finds (stale from its first moment).
step "start PLAN: the path typed in another case (Windows only; Linux gets it as on disk)" \
	-- start $plan \
	--win start '.PLANNING\Phases\02-TASK-API\02-04-plan.md'
expect out "^Plan: +$plan"

step "-C with a drive letter (from another directory)" --in .. -- -C @ROOT@/src/deep tasks
expect out '^> +1 +pending +Task 1: Request size limit'

step "-C with backslashes (relative)" --in .. \
	-- -C "$P/src/deep" hydrate --porcelain \
	--win -C "$P\\src\\deep" hydrate --porcelain
expect out '^1$'

step "log" -- log

# Without GSD_USER and git's user.name, the login name names the session (Windows': no domain).
for side in lin win; do : >"$work/$side/empty.gitconfig"; done
step "whoami from the OS login name" --env GSD_USER= --env "GIT_CONFIG_GLOBAL=@SIDE@/empty.gitconfig" \
	--env GIT_CONFIG_NOSYSTEM=1 -- whoami
expect out '^source: os-user$'

# --- Concurrent marks: eight processes at once, twice --------------------------------------
concurrent() {
	local verb=$1 side k
	n=$((n + 1))
	id=$(printf %02d $n)
	echo "==> $id gsd $verb 1..8 from eight processes at once"
	for side in lin win; do
		echo "    $(label $side) $(gsdname $side) $verb N, for N in 1..8, all at once"
		local -a pids=()
		for k in 1 2 3 4 5 6 7 8; do
			(
				o=$work/$side/$id.$k rc=0
				(cd "$work/$side/$P" && gsd $side "$verb" $k </dev/null >"$o.out" 2>"$o.err") || rc=$?
				echo $rc >"$o.rc"
			) &
			pids+=($!)
		done
		wait "${pids[@]}"
		for k in 1 2 3 4 5 6 7 8; do
			[ "$(cat "$work/$side/$id.$k.rc")" = 0 ] || fail "$id $side: gsd $verb $k: exit $(cat "$work/$side/$id.$k.rc"): $(cat "$work/$side/$id.$k.err")"
			# Tasks left in progress side by side, as these marks leave them, is the one warning
			# expected (which tasks it names depends on the race).
			! grep -qv '^gsd: warning: tasks\{0,1\} [0-9, and]*\(and [0-9]* more \)\{0,1\}\(is\|are\) in progress too: ' "$work/$side/$id.$k.err" ||
				fail "$id $side: gsd $verb $k wrote to stderr: $(cat "$work/$side/$id.$k.err")"
			# Each says which task it marked; the counts after it depend on the race.
			head -n 1 "$work/$side/$id.$k.out" >>"$work/$side/$id.out"
		done
	done
	cmp -s "$work/lin/$id.out" "$work/win/$id.out" || { diff "$work/lin/$id.out" "$work/win/$id.out" >&2; fail "$id: the marks report other tasks"; }
	echo "    same: 8 processes each, all exit 0; every task reported"
	journal_exact=
	trees "$id concurrent $verb"
}
concurrent mark-in-progress
concurrent mark-complete

step "tasks: all eight complete, nothing lost" -- tasks
expect out '^8/8 complete, 0 in progress, 0 pending'

# The journal is complete: its events are numbered without a gap, sixteen of them marks; replayed,
# it gives the session (tasks --at checks the hash it recorded).
for side in lin win; do
	j=$work/$side/$P/.planning/sessions/demo/journal.jsonl
	seqs=$(sed -E 's/.*"seq":([0-9]+),.*/\1/' "$j" | tr '\n' ' ')
	want=$(seq 1 "$(wc -l <"$j")" | tr '\n' ' ')
	[ "$seqs" = "$want" ] || fail "$side: journal seq numbers are $seqs"
	[ "$(grep -c '"type":"mark"' "$j")" = 16 ] || fail "$side: $(grep -c '"type":"mark"' "$j") mark events in the journal, want 16"
	last=$(wc -l <"$j")
done
step "tasks --at the journal's last event rebuilds the session" -- tasks --at "$last"
expect out '^8/8 complete'

# --- Snapshots, archive, restore -----------------------------------------------------------
step "snapshot" -- snapshot --reason "before the archive"
expect out '^snapshot current-plan.20260101000000.manual$'
step "snapshots" -- snapshots
step "archive" -- archive
step "hydrate after archive: afresh from the active plan" -- hydrate
step "restore --dry-run" -- restore current-plan.20260101000000.manual --dry-run
step "restore" -- restore current-plan.20260101000000.manual
expect out '^undo with: gsd restore current-plan.20260101000000.pre-restore'

# --- Progress and STATE.md ------------------------------------------------------------------
for side in lin win; do : >"$work/$side/summary.md"; done
pin_mtimes
step "progress --check in GitHub Actions (annotations, step summary)" \
	--env GITHUB_ACTIONS=true --env "GITHUB_STEP_SUMMARY=@SIDE@/summary.md" -- progress --check
expect out '^::(warning|error|notice) file=\.planning/'
for side in lin win; do norm $side "$work/$side/summary.md"; done
cmp -s "$work/lin/summary.md" "$work/win/summary.md" || { diff "$work/lin/summary.md" "$work/win/summary.md" >&2; fail "the step summaries differ"; }
grep -q '|' "$work/lin/summary.md" || fail "no step summary written"
echo "    same step summary ($(wc -l <"$work/lin/summary.md") lines)"
step "progress --json" -- progress --json
step "state: STATE.md is out of date" -- state
expect out 'out of date'
step "state --write (STATE.md.lock, atomic replace)" -- state --write
for side in lin win; do
	[ ! -e "$work/$side/$P/.planning/STATE.md.lock" ] || fail "$side: state --write left STATE.md.lock behind"
	ls -A "$work/$side/$P/.planning" | grep -q '^\.STATE' && fail "$side: state --write left a temporary file: $(ls -A "$work/$side/$P/.planning")"
done
step "state --write again (the lock was released)" -- state --write
expect out 'up to date'
# Another tool's STATE.md.lock: waited for while fresh, taken over once older than 10 s.
for side in lin win; do
	sed -i 's/^Status: .*/Status: Ready to plan\r/' "$work/$side/$P/.planning/STATE.md"
	printf '4242\n2026-01-01T00:00:00Z\nanother-host\n' >"$work/$side/$P/.planning/STATE.md.lock"
done
step "state --write waits for a fresh STATE.md.lock, then gives up" --env GSD_LOCK_TIMEOUT=1s -- state --write
expect err 'STATE.md.lock: held by another process \(waited 1s'
touch -d 2020-01-01 "$work/lin/$P/.planning/STATE.md.lock" "$work/win/$P/.planning/STATE.md.lock"
step "state --write takes over a STATE.md.lock left for dead" --env GSD_LOCK_TIMEOUT=1s -- state --write
expect out '^Status: In progress'
for side in lin win; do
	[ ! -e "$work/$side/$P/.planning/STATE.md.lock" ] || fail "$side: state --write left STATE.md.lock behind"
done
step "state --check" -- state --check

# --- Claude Code hooks ------------------------------------------------------------------------
step "hook install into a CRLF .claude/settings.json" -- hook install
expect out '^installed'
grep -q $'gsd hook session-start[^"]*"[^\r]*\r$' "$work/win/$P/.claude/settings.json" || fail "hook install did not keep CRLF"
step "hook install again changes nothing" -- hook install
step "hook uninstall" -- hook uninstall
for side in lin win; do
	cmp -s "$work/settings.orig.json" "$work/$side/$P/.claude/settings.json" ||
		fail "$side: .claude/settings.json is not byte-identical after install and uninstall"
done
echo "    .claude/settings.json byte-identical to what it was, on both"
# gsd where Windows installs programs: a path with a space, so quoted.
winexe='"C:\Program Files\gsd\gsd.exe" hook session-start'
step "hook install --command with a quoted Windows path" -- hook install --command "$winexe"
expect out '^installed'
grep -qF '"command": "\"C:\\Program Files\\gsd\\gsd.exe\" hook pre-compact"' "$work/win/$P/.claude/settings.json" ||
	fail "hook install --command did not write the quoted Windows path as JSON"
step "hook install --command again changes nothing" -- hook install --command "$winexe"
expect out 'already'
step "hook uninstall removes it" -- hook uninstall
for side in lin win; do
	cmp -s "$work/settings.orig.json" "$work/$side/$P/.claude/settings.json" ||
		fail "$side: .claude/settings.json is not byte-identical after install --command and uninstall"
done

# Codex CLI's and Gemini CLI's hooks files.
for agent in codex gemini; do
	step "hook install --agent $agent" -- hook install --agent $agent
	expect out '^installed'
	step "hook uninstall --agent $agent" -- hook uninstall --agent $agent
	expect out '^removed'
done

# Claude Code's SessionStart input, with the cwd as each system spells it.
for side in lin win; do
	cwd=${root[$side]}
	printf '{"session_id":"abc","transcript_path":"t.jsonl","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}\r\n' \
		"${cwd//\\/\\\\}" >"$work/$side/startup.json"
	printf '{"session_id":"abc","cwd":"%s","hook_event_name":"PreCompact","trigger":"auto"}\n' "${cwd//\\/\\\\}" >"$work/$side/compact.json"
	printf '{"session_id":"abc","cwd":"%s","hook_event_name":"SessionEnd","reason":"clear"}\n' "${cwd//\\/\\\\}" >"$work/$side/end.json"
done
step "hook session-start, Claude Code's JSON on stdin (run from elsewhere)" --in src/deep --stdin startup.json -- hook session-start
expect out '^\{"hookSpecificOutput":\{"hookEventName":"SessionStart","additionalContext":"# GSD resume brief'
step "hook session-start, the JSON through a pipe" --pipe startup.json -- hook session-start
expect out '"additionalContext":"# GSD resume brief'
step "hook pre-compact (a pipe)" --pipe compact.json -- hook pre-compact
step "hook session-end (a pipe)" --pipe end.json -- hook session-end

# A stdin that stays open: the hook must give up after its deadline, not hang the agent.
n=$((n + 1))
id=$(printf %02d $n)
echo "==> $id hook session-start with a stdin that never closes (the deadline)"
for side in lin win; do
	fifo=$work/$side/stdin.fifo
	mkfifo "$fifo"
	sleep 300 >"$fifo" &
	holder=$!
	echo "    $(label $side) $(gsdname $side) hook session-start <fifo (its writer sleeps)"
	rc=0
	(cd "$work/$side/$P" && gsd $side hook session-start <"$fifo" >"$work/$side/$id.out" 2>"$work/$side/$id.err") || rc=$?
	echo $rc >"$work/$side/$id.rc"
	# gsd returned while the writer still held stdin open: it stopped waiting by itself.
	kill -0 $holder 2>/dev/null || fail "$side: the stdin writer ended before gsd did"
	kill $holder
	wait $holder 2>/dev/null || true
done
same "$id stdin deadline"
expect err 'no hook input on stdin'
trees "$id stdin deadline"

# --- MCP over stdio ----------------------------------------------------------------------------
for side in lin win; do
	cat >"$work/$side/mcp.jsonl" <<-'EOF'
		{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"story","version":"1"}}}
		{"jsonrpc":"2.0","method":"notifications/initialized"}
		{"jsonrpc":"2.0","id":2,"method":"tools/list"}
		{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"task_status_set","arguments":{"task":2,"status":"in-progress"}}}
		{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"session_state_get","arguments":{}}}
	EOF
done
step "mcp: initialize, tools/list, tools/call over stdin (a file)" --stdin mcp.jsonl -- mcp
expect out '"id":4'
step "mcp: the same through a pipe, as an agent runs it" --pipe mcp.jsonl -- mcp
expect out '"id":4'
trees "final"
failed=
echo "PASS: $n steps, Linux and Windows agree ($((SECONDS - story))s under Wine, $((SECONDS - start))s in all)"
