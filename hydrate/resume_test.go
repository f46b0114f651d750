package hydrate

import (
	"regexp"
	"testing"
)

// A session directory name, as identity sanitises names, is `^[a-z0-9]+(-[a-z0-9]+)*$`.
func TestIsUserDirName(t *testing.T) {
	re := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, s := range []string{"", "ann", "john-doe", "a-b-c", "a--b", "-ann", "ann-", "Ann", "jos-garca", "user123", "x_y", "李雷", "a b", "-", "9"} {
		if got, want := isUserDirName(s), re.MatchString(s); got != want {
			t.Errorf("isUserDirName(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzIsUserDirName(f *testing.F) {
	re := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, s := range []string{"ann", "a--b", "-x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isUserDirName(s), re.MatchString(s); got != want {
			t.Fatalf("isUserDirName(%q) = %v, want %v", s, got, want)
		}
	})
}

// dropTaskNumber and splitSnapshotName stand for the expressions they replaced.
func TestMatchersAgreeWithExpressions(t *testing.T) {
	task := regexp.MustCompile(`^(?i:task|step)?\s*\d+\s*[:.)-]\s*`)
	for _, s := range []string{"Task 3: Create schema", "task 12. x", "TASK3)y", "Task 3 - x", "Task: x", "Task 3 x", "Tasks 3: x", "Task  7 :  spaced", "task\t1-\tz", "Create", "",
		"Step 2: x", "STEP 4) y", "Steps 2: x", "3. Numbered", "12) b", " 4: c", "3D model", "2024 notes", "1.1 Sub"} {
		if got, want := dropTaskNumber(s), task.ReplaceAllString(s, ""); got != want {
			t.Errorf("dropTaskNumber(%q) = %q, want %q", s, got, want)
		}
	}
	snap := regexp.MustCompile(`^current-plan\.(\d{14})(?:-(\d+))?\.([a-z][a-z-]*)$`)
	for _, s := range []string{"current-plan.20260203100000.stale", "current-plan.20260203100000-2.pre-compact", "current-plan.2026020310000.stale",
		"current-plan.20260203100000-.stale", "current-plan.20260203100000.Stale", "current-plan.20260203100000.", "current-plan.20260203100000x.stale",
		"current-plan.md", "x.20260203100000.stale", "current-plan.20260203100000-12.a-b-"} {
		m := snap.FindStringSubmatch(s)
		stamp, n, kind, ok := splitSnapshotName(s)
		if ok != (m != nil) || ok && (stamp != m[1] || n != m[2] || kind != m[3]) {
			t.Errorf("splitSnapshotName(%q) = %q %q %q %v; want %q", s, stamp, n, kind, ok, m)
		}
	}
}

func FuzzMatchersAgree(f *testing.F) {
	task := regexp.MustCompile(`^(?i:task|step)?\s*\d+\s*[:.)-]\s*`)
	snap := regexp.MustCompile(`^current-plan\.(\d{14})(?:-(\d+))?\.([a-z][a-z-]*)$`)
	f.Add("Task 3: x")
	f.Add("current-plan.20260203100000-2.pre-compact")
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return // (?i) also folds a few non-ASCII letters into "task"; names are ASCII here
			}
		}
		if got, want := dropTaskNumber(s), task.ReplaceAllString(s, ""); got != want {
			t.Fatalf("dropTaskNumber(%q) = %q, want %q", s, got, want)
		}
		m := snap.FindStringSubmatch(s)
		stamp, n, kind, ok := splitSnapshotName(s)
		if ok != (m != nil) || ok && (stamp != m[1] || n != m[2] || kind != m[3]) {
			t.Fatalf("splitSnapshotName(%q) = %q %q %q %v; want %q", s, stamp, n, kind, ok, m)
		}
	})
}
