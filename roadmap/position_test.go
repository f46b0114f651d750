package roadmap

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// project builds a MapFS from "path: content" pairs; content may be empty.
func project(kv ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return m
}

// projectOf is project, from a map of path to text.
func projectOf(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

const progressHeader = "| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n"

func TestLocate(t *testing.T) {
	const ph = ".planning/phases/"
	tests := []struct {
		name       string
		fsys       fstest.MapFS
		wantPhase  string // "" for no current phase
		wantDir    string
		wantName   string
		wantActive string // base name of the active plan, "" for none
		wantRule   Rule
	}{
		{
			name: "roadmap marks one phase",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 2. Core | 2/2 | Complete | 2026-01-02 |\n"+
					"| 3. Import | 1/3 | In progress | - |\n",
				ph+"02-core/02-01-PLAN.md", "", // abandoned plan in a complete phase
				ph+"03-import/03-01-PLAN.md", "", ph+"03-import/03-01-SUMMARY.md", "",
				ph+"03-import/03-02-PLAN.md", "",
				ph+"03-import/03-03-PLAN.md", "",
			),
			wantPhase: "3", wantDir: ph + "03-import", wantName: "Import",
			wantActive: "03-02-PLAN.md",
		},
		{
			name: "two marked, the first has unfinished plans",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 8. Validation | 1/3 | In progress | - |\n"+
					"| 9. Fixes | 2/3 | In Progress|\n",
				ph+"08-validation/08-01-PLAN.md", "", ph+"08-validation/08-01-SUMMARY.md", "",
				ph+"08-validation/08-02-PLAN.md", "",
				ph+"09-fixes/09-01-PLAN.md", "",
			),
			wantPhase: "8", wantDir: ph + "08-validation", wantName: "Validation",
			wantActive: "08-02-PLAN.md",
		},
		{
			name: "two marked, the first is finished on disk",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 9. Fixes | 2/3 | In Progress|\n"+
					"| 08. Validation | 1/1 | in progress | - |\n",
				ph+"8-validation/8-01-PLAN.md", "", ph+"8-validation/8-01-SUMMARY.md", "",
				ph+"09-fixes/09-01-PLAN.md", "", ph+"09-fixes/09-01-SUMMARY.md", "",
				ph+"09-fixes/09-01-FIX.md", "",
				ph+"09-fixes/09-02-PLAN.md", "",
			),
			wantPhase: "9", wantDir: ph + "09-fixes", wantName: "Fixes",
			wantActive: "09-01-FIX.md",
		},
		{
			name: "marked by a checklist mark, decimal phase",
			fsys: project(
				".planning/ROADMAP.md", "- [x] **Phase 3: Import**\n- [ ] **Phase 3.1: Downloader** (In Progress) - (INSERTED)\n- [ ] **Phase 4: Sync**\n",
				ph+"03-import/03-01-PLAN.md", "",
				ph+"3.1-downloader/3.1-01-PLAN.md", "", ph+"3.1-downloader/3.1-01-SUMMARY.md", "",
				ph+"3.1-downloader/3.1-02-PLAN.md", "",
				ph+"04-sync/04-01-PLAN.md", "",
			),
			wantPhase: "3.1", wantDir: ph + "3.1-downloader", wantName: "Downloader",
			wantActive: "3.1-02-PLAN.md",
		},
		{
			name: "the first marked phase is finished on disk: the next marked one, which needs planning",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 4. Sync | 1/1 | In progress | - |\n"+
					"| 5. Next | 0/0 | In progress | - |\n",
				ph+"04-sync/04-01-PLAN.md", "", ph+"04-sync/04-01-SUMMARY.md", "",
				ph+"06-later/06-01-PLAN.md", "",
			),
			wantPhase: "5", wantDir: "", wantName: "Next", wantRule: RuleInProgress,
		},
		{
			name: "marked phase without a directory",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+"| 7. Planning | 0/TBD | In progress | - |\n",
				ph+"06-done/06-01-PLAN.md", "",
			),
			wantPhase: "7", wantDir: "", wantName: "Planning",
		},
		{
			name: "none marked: first unfinished phase not marked complete",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 1. Setup | 1/2 | Complete | 2026-01-01 |\n"+
					"| 3. Docs | 0/1 | Deferred | - |\n"+
					"| 4. Api | 0/1 | Not started | - |\n",
				ph+"01-setup/01-01-PLAN.md", "",
				ph+"02-unlisted/02-01-PLAN.md", "", ph+"02-unlisted/02-01-SUMMARY.md", "",
				ph+"03-docs/03-01-PLAN.md", "",
				ph+"04-api/04-01-PLAN.md", "",
				ph+"05-later/05-01-PLAN.md", "",
			),
			wantPhase: "4", wantDir: ph + "04-api", wantName: "Api",
			wantActive: "04-01-PLAN.md",
		},
		{
			name: "collapsed milestone counts as complete",
			fsys: project(
				".planning/ROADMAP.md", "<details>\n<summary>v1</summary>\n\n### Phase 1: Old\n\n</details>\n\n- [ ] **Phase 2: New**\n",
				ph+"01-old/01-01-PLAN.md", "",
				ph+"02-new/02-01-PLAN.md", "",
			),
			wantPhase: "2", wantDir: ph + "02-new", wantName: "New",
			wantActive: "02-01-PLAN.md",
		},
		{
			name: "no ROADMAP.md: numeric, not string, order",
			fsys: project(
				ph+"10-ten/10-01-PLAN.md", "",
				ph+"9-nine/9-01-PLAN.md", "",
				ph+"3-three/3-01-PLAN.md", "", ph+"3-three/3-01-SUMMARY.md", "",
				ph+"3.1-three-one/3.1-01-PLAN.md", "",
			),
			wantPhase: "3.1", wantDir: ph + "3.1-three-one", wantName: "three-one",
			wantActive: "3.1-01-PLAN.md",
		},
		{
			name: "nested plans layout",
			fsys: project(
				ph+"07-nested/plans/PLAN-01-a.md", "", ph+"07-nested/plans/SUMMARY-01-a.md", "",
				ph+"07-nested/plans/PLAN-02-b.md", "",
			),
			wantPhase: "7", wantDir: ph + "07-nested", wantName: "nested",
			wantActive: "PLAN-02-b.md",
		},
		{
			name: "nothing left",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+"| 1. A | 1/1 | Complete | - |\n",
				ph+"01-a/01-01-PLAN.md", "", ph+"01-a/01-01-SUMMARY.md", "",
				ph+"02-b/02-CONTEXT.md", "",
			),
		},
		{
			name: "no phases directory",
			fsys: project(".planning/PROJECT.md", "# P\n"),
		},
		{
			name:      "empty roadmap",
			fsys:      project(".planning/ROADMAP.md", "", ph+"01-a/01-01-PLAN.md", ""),
			wantPhase: "1", wantDir: ph + "01-a", wantName: "a", wantActive: "01-01-PLAN.md",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur, err := Locate(tt.fsys, ".planning")
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantPhase == "" {
				if cur.Phase != nil {
					t.Fatalf("got current phase %s, want none", cur.Phase.Num)
				}
				return
			}
			if cur.Phase == nil {
				t.Fatalf("got no current phase, want %s", tt.wantPhase)
			}
			if got := cur.Phase.Num.String(); got != tt.wantPhase {
				t.Errorf("phase = %s, want %s", got, tt.wantPhase)
			}
			if cur.Phase.Dir != tt.wantDir || cur.Phase.Name != tt.wantName {
				t.Errorf("dir, name = %q, %q; want %q, %q", cur.Phase.Dir, cur.Phase.Name, tt.wantDir, tt.wantName)
			}
			active := ""
			if cur.Active != nil {
				active = cur.Active.Path[strings.LastIndexByte(cur.Active.Path, '/')+1:]
				if !strings.HasPrefix(cur.Active.Path, tt.wantDir+"/") {
					t.Errorf("active plan %s is not in %s", cur.Active.Path, tt.wantDir)
				}
			}
			if active != tt.wantActive {
				t.Errorf("active = %q, want %q", active, tt.wantActive)
			}
			if tt.wantRule != "" && cur.Rule != tt.wantRule {
				t.Errorf("rule = %s, want %s", cur.Rule, tt.wantRule)
			}
			if _, ok := tt.fsys[".planning/ROADMAP.md"]; ok != (cur.Roadmap != nil) {
				t.Errorf("Roadmap = %v, but ROADMAP.md exists = %v", cur.Roadmap, ok)
			}
		})
	}
}

func TestLocateUnreadableRoadmap(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"binary", []byte("# Roadmap\x00\x01"), ErrBinary},
		{"too large", make([]byte, MaxFileSize+1), ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{".planning/ROADMAP.md": {Data: tt.data}}
			_, err := Locate(fsys, ".planning")
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), ".planning/ROADMAP.md") {
				t.Errorf("err = %v, want %v naming the file", err, tt.want)
			}
		})
	}
	// Exactly at the limit is fine.
	big := make([]byte, MaxFileSize)
	for i := range big {
		big[i] = ' '
	}
	if _, err := Locate(fstest.MapFS{".planning/ROADMAP.md": {Data: big}}, ".planning"); err != nil {
		t.Errorf("file of MaxFileSize bytes: %v", err)
	}
	// A directory where ROADMAP.md should be is an error, not a panic.
	if _, err := Locate(fstest.MapFS{".planning/ROADMAP.md/x": {}}, ".planning"); err == nil {
		t.Errorf("ROADMAP.md directory: want error")
	}
}

func TestPlanningDir(t *testing.T) {
	ws := ".planning/workstreams/viz/ROADMAP.md"
	tests := []struct {
		name       string
		fsys       fstest.MapFS
		workstream string
		want       string
		wantErr    string
		wantWarn   string // a broken pointer is overruled with a warning, never an error
	}{
		{"default", project(".planning/ROADMAP.md", ""), "", ".planning", "", ""},
		{"active-workstream file", project(".planning/active-workstream", "viz\n", ws, ""), "", ".planning/workstreams/viz", "", ""},
		{"first line only, CRLF and BOM", project(".planning/active-workstream", "\xef\xbb\xbf viz \r\nother\r\n", ws, ""), "", ".planning/workstreams/viz", "", ""},
		{"empty file", project(".planning/active-workstream", "\n", ws, ""), "", ".planning", "", ""},
		{"argument wins over the file", project(".planning/active-workstream", "other\n", ws, ""), "viz", ".planning/workstreams/viz", "", ""},
		{"missing workstream", project(".planning/active-workstream", "gone\n"), "", ".planning", "",
			`.planning/active-workstream: it names workstream gone, which has no directory .planning/workstreams/gone: the root's .planning is in force`},
		{"workstream that is a file", project(".planning/active-workstream", "viz\n", ".planning/workstreams/viz", "x"), "", ".planning", "", "which has no directory"},
		{"pointer out of the workstreams", project(".planning/active-workstream", "../../etc\n", ws, ""), "", ".planning", "", `it names "../../etc", which is not a workstream name`},
		{"binary pointer", project(".planning/active-workstream", "viz\x00", ws, ""), "", ".planning", "", "it cannot be read"},
		{"missing workstream from the argument", project(ws, ""), "gone", "", `workstream "gone": no directory .planning/workstreams/gone`, ""},
		{"path traversal", project(ws, ""), "../../etc", "", "invalid workstream name", ""},
		{"dot dot", project(ws, ""), "..", "", "invalid workstream name", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := Select(tt.fsys, tt.workstream)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || sel.Dir() != tt.want {
				t.Errorf("Select = %q, %v; want %q", sel.Dir(), err, tt.want)
			}
			if w := sel.Warning(); tt.wantWarn == "" && w != "" || !strings.Contains(w, tt.wantWarn) {
				t.Errorf("Warning = %q, want it to contain %q", w, tt.wantWarn)
			}
		})
	}
}

func TestLocateWorkstream(t *testing.T) {
	fsys := project(
		".planning/active-workstream", "viz\n",
		".planning/ROADMAP.md", progressHeader+"| 1. Main | 0/1 | In progress | - |\n",
		".planning/phases/01-main/01-01-PLAN.md", "",
		".planning/workstreams/viz/ROADMAP.md", "- [ ] **Phase 1: Viz Site** — first\n",
		".planning/workstreams/viz/phases/01-viz-site/01-01-PLAN.md", "",
		".planning/workstreams/viz/phases/01-viz-site/01-01-SUMMARY.md", "",
		".planning/workstreams/viz/phases/01-viz-site/01-02-PLAN.md", "",
	)
	sel, err := Select(fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := sel.Dir()
	cur, err := Locate(fsys, dir)
	if err != nil || cur == nil {
		t.Fatalf("Locate = %v, %v", cur, err)
	}
	want := ".planning/workstreams/viz/phases/01-viz-site/01-02-PLAN.md"
	if cur.Active == nil || cur.Active.Path != want || cur.Phase.Name != "Viz Site" {
		t.Errorf("got %+v active %+v, want %s", cur.Phase, cur.Active, want)
	}
	if cur.Roadmap.Path != ".planning/workstreams/viz/ROADMAP.md" {
		t.Errorf("Roadmap.Path = %q", cur.Roadmap.Path)
	}
	// The scope's evidence cites the file when it names the workstream in force, not when
	// GSD_WORKSTREAM named another.
	for _, tt := range []struct{ named, want string }{{"viz\n", ".planning/active-workstream:1"}, {"main\n", ""}} {
		fsys[".planning/active-workstream"].Data = []byte(tt.named)
		pos, err := Locate(fsys, dir)
		if err != nil || len(pos.Evidence) == 0 || pos.Evidence[0].Decision != "scope" {
			t.Fatalf("Locate: %v, %+v", err, pos)
		}
		got := pos.Evidence[0].File
		if got != "" {
			got += fmt.Sprintf(":%d", pos.Evidence[0].Line)
		}
		if got != tt.want {
			t.Errorf("file naming %q: scope cited %q, want %q", tt.named, got, tt.want)
		}
	}
}

// countingFS records every path opened through it; fs.ReadDir, fs.ReadFile
// and fs.Stat all reach it through Open since it implements nothing else.
type countingFS struct {
	fsys fs.FS
	mu   sync.Mutex
	open []string
}

// Stat keeps stats apart from opens: reading a file stats it first (a FIFO must not be opened).
func (c *countingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.fsys, name) }

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.open = append(c.open, name)
	c.mu.Unlock()
	return c.fsys.Open(name)
}

// bigProject has n phases, all complete in the progress table but the last,
// whose status is lastStatus; every phase directory holds done plans except
// the last, which has one plan left.
func bigProject(n int, lastStatus string) fstest.MapFS {
	var rm strings.Builder
	rm.WriteString("# Roadmap\n\n## Progress\n\n" + progressHeader)
	m := fstest.MapFS{}
	for i := 1; i <= n; i++ {
		dir := fmt.Sprintf(".planning/phases/%03d-phase-%d", i, i)
		status := "Complete"
		if i == n {
			status = lastStatus
		}
		fmt.Fprintf(&rm, "| %d. Phase %d | 2/2 | %s | - |\n", i, i, status)
		for j := 1; j <= 2; j++ {
			m[fmt.Sprintf("%s/%03d-%02d-PLAN.md", dir, i, j)] = &fstest.MapFile{}
			if i < n || j == 1 {
				m[fmt.Sprintf("%s/%03d-%02d-SUMMARY.md", dir, i, j)] = &fstest.MapFile{}
			}
		}
		if i%7 == 0 { // finished phases with leftover plans must still be skipped
			m[fmt.Sprintf("%s/%03d-03-PLAN.md", dir, i)] = &fstest.MapFile{}
		}
	}
	m[".planning/ROADMAP.md"] = &fstest.MapFile{Data: []byte(rm.String())}
	return m
}

func TestLocateReadsOnlyWhatItNeeds(t *testing.T) {
	for _, status := range []string{"In progress", "Not started"} {
		t.Run(status, func(t *testing.T) {
			c := &countingFS{fsys: bigProject(1000, status)}
			cur, err := Locate(c, ".planning")
			if err != nil || cur == nil {
				t.Fatalf("Locate = %v, %v", cur, err)
			}
			if cur.Active == nil || cur.Active.ID != "1000-02" {
				t.Fatalf("active = %+v, want 1000-02", cur.Active)
			}
			// The pointer is looked at for the scope's evidence (is a workstream it names stale?),
			// GSD's pause files (the planning directory's and the current phase's), and the
			// recentPhases phases before the current one for leftovers the roadmap calls
			// complete (settle): a constant, whatever the project's size.
			want := []string{".planning/ROADMAP.md", ".planning/STATE.md", ".planning/phases", ".planning/active-workstream", ".planning/phases/1000-phase-1000",
				".planning/HANDOFF.json", ".planning/.continue-here.md", ".planning/phases/1000-phase-1000/.continue-here.md",
				".planning/phases/999-phase-999"}
			if !slices.Equal(c.open, want) {
				t.Errorf("opened %d paths %q, want %q", len(c.open), head(c.open, 10), want)
			}
		})
	}
}

func head(s []string, n int) []string { return s[:min(len(s), n)] }

func BenchmarkLocate(b *testing.B) {
	fsys := bigProject(1000, "In progress")
	b.ReportAllocs()
	for b.Loop() {
		cur, err := Locate(fsys, ".planning")
		if err != nil || cur.Active == nil {
			b.Fatal(cur, err)
		}
	}
}

func TestNumbered(t *testing.T) {
	dirs := phaseDirsOf("p", []string{"01-a", "3-b", "03-c", "03.1-d", "4-e", "4-f"})
	for _, tt := range []struct {
		n    string
		want []string
	}{{"1", []string{"p/01-a"}}, {"3", []string{"p/03-c", "p/3-b"}}, {"3.1", []string{"p/03.1-d"}}, {"4", []string{"p/4-e", "p/4-f"}}, {"2", nil}, {"5", nil}} {
		var got []string
		for _, d := range numbered(dirs, mustPhase(t, tt.n)) {
			got = append(got, d.Dir)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("numbered(%s) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestMilestoneArchives(t *testing.T) {
	tests := []struct {
		milestone, dir string
		want           bool
	}{
		{"v1.0 MVP", ".planning/milestones/v1.0-phases/01-a", true},
		{"v1.0 MVP", ".planning/milestones/V1.0-phases/01-a", true},
		{"v1.0 MVP", ".planning/milestones/v1.0.1-phases/01-a", false},
		{"v1.0.1 Patch", ".planning/milestones/v1.0-phases/01-a", false},
		{"v1.1 Search", ".planning/milestones/v1.0-phases/01-a", false},
		{"Milestone 1: MVP v1.0", ".planning/milestones/v1.0-phases/01-a", true}, // the version is a word of its name
		{"Milestone 1: MVP", ".planning/milestones/v1.0-phases/01-a", false},
		{"v1.0 MVP", ".planning/phases/01-a", false},
	}
	for _, tt := range tests {
		m, ok := parseMilestone(tt.milestone, false)
		if !ok {
			t.Fatalf("%q is no milestone", tt.milestone)
		}
		if got := m.archives(tt.dir); got != tt.want {
			t.Errorf("%q archives %s = %v, want %v", tt.milestone, tt.dir, got, tt.want)
		}
	}
}

// TestLocateResetNumbersEveryOneShipped: two shipped milestones list phases 1-2 and the current
// one goes on from 3. phases/ still holds the later one's (v1.1, not archived yet); v1.0's are in
// its archive. Neither borrows the other's, and the current phase is 3.
func TestLocateResetNumbersEveryOneShipped(t *testing.T) {
	const ph, v1 = ".planning/phases/", ".planning/milestones/v1.0-phases/"
	fsys := project(
		".planning/ROADMAP.md", "# Roadmap\n\n"+
			"<details>\n<summary>✅ v1.0 Alpha (Phases 1-2) — SHIPPED</summary>\n\n- [x] Phase 1: Setup\n- [x] Phase 2: Core\n\n</details>\n\n"+
			"<details>\n<summary>✅ v1.1 Beta (Phases 1-2) — SHIPPED</summary>\n\n- [x] Phase 1: Rework\n- [x] Phase 2: Polish\n\n</details>\n\n"+
			"### 🚧 v1.2 Release (In Progress)\n\n- [ ] **Phase 3: Ship**\n",
		v1+"01-setup/01-01-PLAN.md", "", v1+"01-setup/01-01-SUMMARY.md", "",
		v1+"02-core/02-01-PLAN.md", "", v1+"02-core/02-01-SUMMARY.md", "",
		v1+"02-core/02-02-PLAN.md", "", v1+"02-core/02-02-SUMMARY.md", "",
		ph+"01-rework/01-01-PLAN.md", "", ph+"01-rework/01-01-SUMMARY.md", "",
		ph+"02-polish/02-01-PLAN.md", "", ph+"02-polish/02-01-SUMMARY.md", "",
		ph+"03-ship/03-01-PLAN.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	var got []string
	for i := range p.Phases {
		got = append(got, phaseLine(&p.Phases[i])+" "+p.Phases[i].Dir)
	}
	want := "1 Setup 1/1 complete (roadmap complete) " + v1 + "01-setup\n" +
		"1 Rework 1/1 complete (roadmap complete) " + ph + "01-rework\n" +
		"2 Core 2/2 complete (roadmap complete) " + v1 + "02-core\n" +
		"2 Polish 1/1 complete (roadmap complete) " + ph + "02-polish\n" +
		"3 Ship 0/1 planned (roadmap not-started) " + ph + "03-ship"
	if strings.Join(got, "\n") != want {
		t.Errorf("phases:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if cur := p.CurrentPhase(); cur == nil || cur.Name != "Ship" || len(p.Problems) != 0 {
		t.Errorf("current %v, problems:\n%s", cur, problemsText(p.Problems))
	}
}
