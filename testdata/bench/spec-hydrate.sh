#!/usr/bin/env bash
# The specification's own shell version of hydration (get_session_user, hydrate_session,
# is_session_stale, parse_resume_point), kept as written apart from wiring, as the baseline
# `make bench` times gsd against. Its bugs are the spec's; gsd does not share them.
get_session_user() {
  local name
  name=$(git config user.name 2>/dev/null) || name=$(whoami 2>/dev/null) || name=$(hostname -s 2>/dev/null) || name=unknown
  echo "$name" | tr '[:upper:]' '[:lower:]' | tr ' ' '-' | tr -cd 'a-z0-9-' | tr -s '-' | sed 's/^-//;s/-$//'
}
parse_task_statuses() {
  grep -E '<task[^>]*status=' "$1" | sed 's/.*status="\([^"]*\)".*/\1/'
}
parse_resume_point() {
  local task_num=0 resume_task="" status
  while IFS= read -r status; do
    task_num=$((task_num + 1))
    case "$status" in
      complete) ;;
      in-progress|pending) resume_task="$task_num"; break ;;
    esac
  done < <(parse_task_statuses "$1")
  if [ -z "$resume_task" ]; then echo "ALL_COMPLETE"; else echo "$resume_task"; fi
}
is_session_stale() {
  local session_file="$1" plan_path
  plan_path=$(grep -m1 '^<!-- Plan:' "$session_file" | sed 's/.*Plan: \(.*\) -->/\1/')
  [ ! -f "$plan_path" ] && return 0
  local summary_path="${plan_path/PLAN/SUMMARY}"
  [ -f "$summary_path" ] && return 0
  local plan_phase current_phase
  plan_phase=$(echo "$plan_path" | grep -oE '/[0-9]+-' | head -1 | tr -d '/-')
  current_phase=$(grep -E '^\|.*In progress' .planning/ROADMAP.md 2>/dev/null | head -1 | grep -oE '[0-9]+' | head -1)
  if [ -n "$current_phase" ] && [ "$plan_phase" != "$current_phase" ]; then return 0; fi
  local session_tasks plan_tasks
  session_tasks=$(grep -c '<task[^>]*type=' "$session_file")
  plan_tasks=$(grep -c '<task[^>]*type=' "$plan_path")
  [ "$session_tasks" != "$plan_tasks" ] && return 0
  return 1
}
hydrate_session() {
  local user session_file
  user=$(get_session_user)
  session_file=".planning/sessions/${user}/current-plan.md"
  if [ ! -f "$session_file" ]; then echo "NO_SESSION"; return 1; fi
  if is_session_stale "$session_file"; then echo "STALE"; return 2; fi
  parse_resume_point "$session_file"
}
hydrate_session
