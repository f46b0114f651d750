package teamsync

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MetaFile is the file of a published session that says who published it, where and when, what
// its journal ends with, and the teammates' sessions it took over.
const MetaFile = "gsd-sync.json"

// Meta is MetaFile.
type Meta struct {
	SchemaVersion int        `json:"schemaVersion"`
	User          string     `json:"user"`
	Host          string     `json:"host"`
	Published     time.Time  `json:"published"`
	LastEventTime *time.Time `json:"lastEventTime"`       // the journal's last event
	LastEventHash string     `json:"lastEventSha256"`     // its session hash
	Instance      string     `json:"instance,omitempty"`  // the agent attached, per the journal
	Handovers     []Handover `json:"handovers,omitempty"` // sessions this user took over from fetched refs
	Files         []string   `json:"files,omitempty"`     // the session directory's files, as published
	Skipped       []string   `json:"skipped,omitempty"`   // files of the directory that are not gsd's, not published
}

// Handover is one teammate's session taken over from a fetched ref.
type Handover struct {
	User   string    `json:"user"`   // whose session
	Remote string    `json:"remote"` // fetched from
	By     string    `json:"by"`     // who took it
	Host   string    `json:"host"`   // where
	Time   time.Time `json:"time"`
	Plan   string    `json:"plan"`
}

// Fetched is one session as fetched from a remote.
type Fetched struct {
	Remote, User, Ref, Commit string
	SyncedAt                  time.Time // the commit's date: when its user last synced
	Session                   []byte
	HasSession                bool
	Meta                      *Meta    // nil when the commit has none gsd can read
	Names                     []string // the files of its tree
	Problem                   string   // why it cannot be read; "" when it can
}

// HasFetched says, without running git, whether the repository whose common directory is
// commonDir may hold fetched sessions: refs/gsd/remotes exists, or packed-refs (or a reftable,
// which only git reads) may hold it.
func HasFetched(commonDir string, stat func(string) bool, packedHas func(path, s string) bool) bool {
	if commonDir == "" {
		return false
	}
	sep := "/"
	if stat(commonDir + sep + "refs/gsd/remotes") {
		return true
	}
	if stat(commonDir + sep + "reftable") {
		return true
	}
	return packedHas(commonDir+sep+"packed-refs", " "+RemotesPrefix)
}

// MaxListBytes bounds what ListFetched reads of all the fetched sessions together (their
// trees, metadata and session files): gsd sessions, gsd resume and the MCP server hold no more,
// however many teammates there are and whatever their refs hold.
const MaxListBytes = 64 << 20

// ListFetched reads the fetched sessions, at most MaxRefs of them: one git for-each-ref, one
// git cat-file --batch-check for the sizes, and one git cat-file --batch for what is within the
// caps (a session file of at most maxSession bytes, MaxMetaBytes of metadata, MaxTreeBytes of
// tree, and MaxListBytes in all). A ref over them is listed with its Problem, its files unread.
func (r Repo) ListFetched(ctx context.Context, maxSession int64) ([]Fetched, error) {
	out, err := r.Git.Run(ctx, nil, nil, "for-each-ref", fmt.Sprintf("--count=%d", MaxRefs),
		"--format=%(objectname) %(objecttype) %(committerdate:unix) %(refname)", RemotesPrefix)
	if err != nil {
		return nil, err
	}
	var list []Fetched
	var reqs []string
	var at []int
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(l, " ", 4)
		if len(f) != 4 {
			continue
		}
		remote, user, ok := splitFetched(f[3])
		if !ok {
			continue
		}
		fe := Fetched{Remote: remote, User: user, Ref: f[3], Commit: f[0]}
		if n, err := strconv.ParseInt(f[2], 10, 64); err == nil {
			fe.SyncedAt = time.Unix(n, 0).UTC()
		}
		switch {
		case CheckUser(user) != nil:
			fe.Problem = CheckUser(user).Error() + "; not read"
		case f[1] != "commit":
			fe.Problem = "holds a " + f[1] + ", not a commit gsd sync made (rewritten by hand?)"
		default:
			reqs = append(reqs, fe.Commit+"^{tree}", fe.Commit+":"+MetaFile, fe.Commit+":current-plan.md")
			at = append(at, len(list))
		}
		list = append(list, fe)
	}
	objs, sizes, ids, err := r.batchCheck(ctx, reqs)
	if err != nil {
		return nil, err
	}
	// What to read, within the caps and the budget.
	caps := []int64{MaxTreeBytes, MaxMetaBytes, maxSession}
	var want []string
	var wantAt []int // index into reqs
	budget := int64(MaxListBytes)
	names := []string{"its tree", MetaFile, "current-plan.md"}
	for k, i := range at {
		fe := &list[i]
		var need int64
		for j := 0; j < 3 && fe.Problem == ""; j++ {
			q := 3*k + j
			if objs[q].Missing {
				continue
			}
			if sizes[q] > caps[j] {
				fe.Problem = fmt.Sprintf("%s is %d bytes, over the %s gsd reads; not read", names[j], sizes[q], sizeText(caps[j]))
			}
			need += sizes[q]
		}
		if fe.Problem == "" && need > budget {
			fe.Problem = fmt.Sprintf("not read: the fetched sessions hold more than the %d MiB gsd reads of them", MaxListBytes>>20)
		}
		if fe.Problem != "" {
			continue
		}
		budget -= need
		for j := 0; j < 3; j++ {
			if q := 3*k + j; !objs[q].Missing {
				want, wantAt = append(want, ids[q]), append(wantAt, q)
			}
		}
	}
	data, err := r.catFile(ctx, want)
	if err != nil {
		return nil, err
	}
	got := make(map[int]object, len(want))
	for n, q := range wantAt {
		got[q] = data[n]
	}
	for k, i := range at {
		fe := &list[i]
		if fe.Problem != "" {
			continue
		}
		tree, treeOK := got[3*k]
		meta, metaOK := got[3*k+1]
		sess, sessOK := got[3*k+2]
		if treeOK && tree.Type == "tree" {
			if ents, err := parseTree(tree.Data, len(fe.Commit)/2); err == nil {
				for _, e := range ents {
					fe.Names = append(fe.Names, e.Name)
				}
			}
		}
		if metaOK && meta.Type == "blob" {
			var m Meta
			if json.Unmarshal(meta.Data, &m) == nil && m.SchemaVersion == 1 {
				fe.Meta = &m
			}
		}
		if sessOK && sess.Type == "blob" {
			fe.Session, fe.HasSession = sess.Data, true
		}
		if fe.Meta == nil {
			fe.Problem = "no " + MetaFile + " gsd can read: not published by gsd sync (rewritten by hand?)"
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].Remote != list[j].Remote {
			return list[i].Remote < list[j].Remote
		}
		return list[i].User < list[j].User
	})
	return list, nil
}
