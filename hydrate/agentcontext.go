package hydrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gsd-tools/gsd/hydrate/agentctx"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// The agent's own context: what the hooks capture from the agent's transcript (its user's last
// prompt, its todo list, its recent tools and edited files), kept for the user of the project
// outside everything git tracks and gsd sync publishes, and handed back after a reset.

// AgentContextStaleAfter is how old a capture may be and still be handed back to an agent as
// what it was doing: an older one is only listed, as stale, in the JSON.
const AgentContextStaleAfter = 48 * time.Hour

// agentContextDir is where the captures are kept, under the repository's git directory (or the
// user's state directory for a project outside git).
const agentContextDir = "agent-context"

// HandsBack reports whether a SessionStart of source hands the agent's context back: after
// /clear, a compaction or a resume, not at a new conversation's start.
func HandsBack(source string) bool {
	return source == "clear" || source == "compact" || source == "resume"
}

// CaptureInput is what a hook knows when it captures: its event (Stop, PreCompact, ...) and the
// trigger or reason it gave, the agent's session and transcript, and the agent's working
// directory.
type CaptureInput struct {
	Event, Detail string
	SessionID     string
	Transcript    string
	Cwd           string
}

// turnEnd reports whether the capture is at a turn's end (Stop, Gemini's AfterAgent), which
// writes nothing when the transcript brought nothing new; the other events (PreCompact,
// SessionEnd) always record that the capture was current then.
func (in CaptureInput) turnEnd() bool { return in.Event == "Stop" || in.Event == "AfterAgent" }

// reinject reports whether the capture is to be handed back once, on the agent's next turn:
// after Gemini CLI's PreCompress, which no SessionStart follows.
func (in CaptureInput) reinject() bool { return in.Event == "PreCompress" }

// label is the event as the capture records it: "PreCompact: auto", "Stop".
func (in CaptureInput) label() string {
	if in.Detail == "" {
		return in.Event
	}
	return in.Event + ": " + in.Detail
}

// CaptureResult says what a capture did.
type CaptureResult struct {
	File    string // where the capture is kept
	Written bool   // false when nothing changed (nothing appended to the transcript)
	Read    int64  // bytes of the transcript read
}

// AgentContext is the agent's own context as gsd hands it back (the brief, hydrate --json,
// session_rehydrate): what the hooks last captured from the agent's transcript, when, and
// whether it still applies.
type AgentContext struct {
	Agent      string    `json:"agent"`     // claude, codex or gemini
	SessionID  string    `json:"sessionId"` // the agent's session it was captured from
	CapturedAt time.Time `json:"capturedAt"`
	Age        string    `json:"age"`   // how long ago, as "12m", "3h"
	Event      string    `json:"event"` // the hook that captured it: "Stop", "PreCompact: auto", ...
	// LastPrompt is the user's last request to the agent: one line, at most 400 characters,
	// what the user marked <private> left out and secrets redacted.
	LastPrompt  *string     `json:"lastPrompt"`
	PromptAt    *time.Time  `json:"promptAt"`
	LastTools   []string    `json:"lastTools"` // newest first
	Todos       []AgentTodo `json:"todos"`
	TodoSource  *string     `json:"todoSource"` // TodoWrite, Task, update_plan or write_todos
	Files       []string    `json:"files"`      // project files edited, newest first
	CompactedAt *time.Time  `json:"compactedAt"`
	Branch      *string     `json:"branch"` // the branch checked out when it was captured
	Stale       bool        `json:"stale"`  // older than AgentContextStaleAfter: not handed back
	Notes       []string    `json:"notes"`  // why it may not apply (another branch, session)
	File        string      `json:"file"`   // where it is kept (delete it to forget it)
}

// AgentTodo is one item of the agent's own todo list: its text, its status in gsd's words
// (pending, in-progress, complete, or cancelled), and the form the agent shows while doing it.
type AgentTodo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
}

// Counts counts the todos by status: in progress, pending, complete (and cancelled).
func (ac *AgentContext) Counts() (inProgress, pending, done int) {
	for _, t := range ac.Todos {
		switch t.Status {
		case agentctx.InProgress:
			inProgress++
		case agentctx.Pending:
			pending++
		default:
			done++
		}
	}
	return
}

// agentContextFile is where the user's capture for this project is kept: under the git
// directory of the checkout (<git-dir>/gsd/agent-context/<user>.json, with the project's path in
// a hash when the project is a subdirectory of the working tree), else under the user's state
// directory (<state>/agent-context/<hash of the root>/<user>.json). It also returns the
// repository (zero without one).
func (e *Env) agentContextFile() (string, identity.Repo, error) {
	user := e.User.User
	if user == "" {
		return "", identity.Repo{}, errors.New("no user")
	}
	if repo, ok := e.gitRepo(); ok && repo.WorkTree != "" {
		name := user + ".json"
		if top := repo.WorkTree; top != e.Root { // (the real root resolved only when it may matter, and once)
			if real := e.realRoot(); top != real {
				rel, err := filepath.Rel(top, real)
				if err != nil {
					rel = real
				}
				name = user + "." + shortHash(filepath.ToSlash(rel)) + ".json"
			}
		}
		return filepath.Join(repo.GitDir, "gsd", agentContextDir, name), repo, nil
	}
	if e.stateDir == "" {
		return "", identity.Repo{}, errors.New("no place to keep it: the project is not in a git repository and there is no state directory (XDG_STATE_HOME or HOME)")
	}
	return filepath.Join(e.stateDir, agentContextDir, shortHash(e.realRoot()), user+".json"), identity.Repo{}, nil
}

// realRoot is the project root with its symlinks resolved.
func (e *Env) realRoot() string {
	if real, err := filepath.EvalSymlinks(e.Root); err == nil {
		return real
	}
	return e.Root
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// branchOf is the branch checked out in repo ("" when detached, unknown, or outside git).
func branchOf(repo identity.Repo) string {
	if repo.GitDir == "" {
		return ""
	}
	return identity.HeadBranch(repo)
}

// readAgentRecord reads the stored record at file: nil when there is none, or when it is not a
// record of this project (a hand edit, another version, another project's).
func (e *Env) readAgentRecord(file string) *agentctx.Record {
	data, _ := readRecordFile(file)
	return e.decodeAgentRecord(data)
}

// readRecordFile reads a record file's bytes (nil when there is none) and its information (nil
// when there is no file): a record is replaced whole, so the same file, size and time are the
// same record.
func readRecordFile(file string) ([]byte, fs.FileInfo) {
	f, fi, err := atomicfile.OpenRegular(file)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 2*agentctx.MaxFileSize+1))
	if err != nil {
		return nil, fi
	}
	return data, fi
}

// decodeAgentRecord decodes a record of this project; nil for anything else.
func (e *Env) decodeAgentRecord(data []byte) *agentctx.Record {
	if data == nil {
		return nil
	}
	r, err := agentctx.Decode(data)
	if err != nil || r.Root != e.Root {
		return nil
	}
	return r
}

// sameRecordFile reports whether the record file is still the one read (before was its
// information then, nil when there was none).
func sameRecordFile(file string, before fs.FileInfo) bool {
	now, err := os.Stat(file)
	if before == nil || err != nil {
		return before == nil && errors.Is(err, fs.ErrNotExist)
	}
	return os.SameFile(before, now) && now.Size() == before.Size() && now.ModTime().Equal(before.ModTime())
}

// agentContextLockWait bounds how long a capture waits for another capture of the same user:
// a hook must not hold the agent up.
const agentContextLockWait = time.Second

// Capture reads what the agent appended to its transcript since the last capture (at most
// agentctx.MaxRead bytes; without a cursor, the last agentctx.TailRead) and folds it into the
// user's stored capture, written atomically (owner-only). A capture of another agent session
// starts afresh, and replaces the stored one only once it holds something. It does nothing when
// the agentContext setting is off or the transcript is not known.
func (a Agents) Capture(in CaptureInput) (*CaptureResult, error) {
	e := a.e
	if !e.settings.AgentContext || in.Transcript == "" && !in.reinject() {
		return nil, nil
	}
	file, repo, err := e.agentContextFile()
	if err != nil {
		return nil, fmt.Errorf("agent context: %w", err)
	}
	res := &CaptureResult{File: file}
	var tinfo fs.FileInfo
	if in.Transcript != "" {
		if tinfo, err = os.Stat(in.Transcript); err != nil {
			// No transcript (yet): nothing to capture. (Told before any lock is taken.)
			return nil, fmt.Errorf("agent context: transcript: %w", err)
		}
	}
	// Most turns' ends find the transcript as the last one left it, and write nothing: that is
	// told without the lock (the record is replaced whole, atomically), from where it was read
	// and the transcript's stat above.
	data, info := readRecordFile(file)
	if w, ok := agentctx.DecodeWhere(data); ok && in.turnEnd() && tinfo != nil && w.Root == e.Root && w.SessionID == in.SessionID &&
		agentctx.Unchanged(in.Transcript, tinfo, w.Cursor) {
		return res, nil
	}
	old := e.decodeAgentRecord(data)
	dir := filepath.Dir(file)
	if err := atomicfile.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("agent context: %w", err)
	}
	l, err := atomicfile.LockDir(context.Background(), dir, agentContextLockWait)
	if err != nil {
		return nil, fmt.Errorf("agent context: %w", err)
	}
	defer l.Unlock()
	if !sameRecordFile(file, info) {
		old = e.readAgentRecord(file) // another capture wrote meanwhile
	}
	// The stored capture goes on when it is this session's; another session's starts afresh,
	// and replaces the stored one only once it holds something.
	var rec agentctx.Record
	same := old != nil && old.SessionID == in.SessionID
	if same {
		rec = *old
	}
	changed := false
	if in.Transcript != "" {
		var cur agentctx.Cursor
		if old != nil {
			cur = old.Cursor // a cursor holds only for its own file
		}
		fold := rec.Capture.Clone()
		roots := []string{e.Root}
		if real := e.realRoot(); real != e.Root {
			roots = append(roots, real)
		}
		st, err := agentctx.Advance(&fold, in.Transcript, cur, agentctx.Options{Roots: roots, Dir: in.Cwd})
		if err != nil {
			return nil, fmt.Errorf("agent context: transcript: %w", err)
		}
		res.Read = st.Read
		if st.Foreign || !same && fold.Empty() && old != nil {
			return res, nil // a subagent's transcript, or a new session with nothing yet
		}
		changed = !same || !sameCapture(&fold, &rec.Capture) || rec.Cursor != st.Next || rec.Agent != st.Agent
		rec.Agent, rec.Capture, rec.Cursor, rec.SessionID = st.Agent, fold, st.Next, in.SessionID
	} else if old == nil {
		return res, nil // nothing captured to hand back
	} else {
		rec = *old // no transcript: what is stored stays, to be handed back
	}
	if !changed && in.turnEnd() {
		return res, nil
	}
	rec.Root, rec.Branch = e.Root, branchOf(repo)
	rec.CapturedAt, rec.Event = e.now().UTC().Truncate(time.Second), in.label()
	rec.Reinject = rec.Reinject || in.reinject()
	if err := e.writeAgentRecord(file, &rec); err != nil {
		return nil, err
	}
	res.Written = true
	return res, nil
}

// sameCapture reports whether two captures hold the same.
func sameCapture(a, b *agentctx.Capture) bool {
	return a.Prompt == b.Prompt && a.PromptAt.Equal(b.PromptAt) && a.TodoSource == b.TodoSource &&
		a.CompactedAt.Equal(b.CompactedAt) && slices.Equal(a.Tools, b.Tools) && slices.Equal(a.Todos, b.Todos) &&
		slices.Equal(a.Files, b.Files)
}

// writeAgentRecord writes the record atomically, readable by its owner alone. It does not wait
// for the disk: it is written at every turn's end, and a record lost to a power cut is made
// again from the transcript's end by the next capture.
func (e *Env) writeAgentRecord(file string, rec *agentctx.Record) error {
	data, err := rec.Encode()
	if err != nil {
		return fmt.Errorf("agent context: %w", err)
	}
	if err := atomicfile.ReplaceUnsynced(file, data, 0o600); err != nil {
		return fmt.Errorf("agent context: %w", err)
	}
	return nil
}

// AgentContextOptions say who asks for the agent's context.
type AgentContextOptions struct {
	// Resumed is the agent session a SessionStart resumes ("" otherwise): a capture of another
	// session is said to be so.
	Resumed string
	// Consume takes back a pending hand-back (CaptureInput.Reinject): the context is being handed
	// back now.
	Consume bool
}

// AgentContext is the user's captured agent context for this project, or nil when there is
// none (or the agentContext setting is off). It never fails: a record it cannot read is none.
func (a Agents) AgentContext(o AgentContextOptions) *AgentContext {
	e := a.e
	rec, file, repo := e.storedAgentRecord()
	if rec == nil || rec.CapturedAt.IsZero() || rec.Empty() {
		return nil // (a record that holds only where the transcript was read)
	}
	if o.Consume && rec.Reinject {
		_ = e.clearReinject(file)
	}
	return e.agentContextView(rec, file, branchOf(repo), o.Resumed)
}

// TakeReinject is the captured context when a capture asked for it to be handed back on the
// agent's next turn (Gemini CLI's PreCompress), taking that request back; nil otherwise, which
// is every turn but that one.
func (a Agents) TakeReinject() *AgentContext {
	e := a.e
	rec, file, repo := e.storedAgentRecord()
	if rec == nil || !rec.Reinject {
		return nil
	}
	if err := e.clearReinject(file); err != nil || rec.Empty() {
		return nil // handed back only once, or not at all
	}
	return e.agentContextView(rec, file, branchOf(repo), "")
}

// storedAgentRecord is the user's stored record for this project (nil when the agentContext
// setting is off, or there is none), the file it is kept in and the repository.
func (e *Env) storedAgentRecord() (*agentctx.Record, string, identity.Repo) {
	if e.settings == nil || !e.settings.AgentContext {
		return nil, "", identity.Repo{}
	}
	file, repo, err := e.agentContextFile()
	if err != nil {
		return nil, "", identity.Repo{}
	}
	return e.readAgentRecord(file), file, repo
}

// clearReinject takes a record's hand-back request back, under the capture's lock.
func (e *Env) clearReinject(file string) error {
	l, err := atomicfile.LockDir(context.Background(), filepath.Dir(file), agentContextLockWait)
	if err != nil {
		return err
	}
	defer l.Unlock()
	rec := e.readAgentRecord(file)
	if rec == nil || !rec.Reinject {
		return errors.New("taken already")
	}
	rec.Reinject = false
	return e.writeAgentRecord(file, rec)
}

// agentContextView is a stored record as it is handed back, judged against now and the branch
// checked out.
func (e *Env) agentContextView(rec *agentctx.Record, file, branch, resumed string) *AgentContext {
	now := e.now()
	ac := &AgentContext{
		Agent: rec.Agent, SessionID: rec.SessionID, CapturedAt: rec.CapturedAt.UTC(),
		Age: textfmt.Elapsed(now.Sub(rec.CapturedAt)), Event: rec.Event,
		LastTools: nonNil(rec.Tools), Files: nonNil(rec.Files), File: file,
		Todos: []AgentTodo{}, Notes: []string{},
	}
	if rec.Prompt != "" {
		p := rec.Prompt
		ac.LastPrompt = &p
	}
	if !rec.PromptAt.IsZero() {
		t := rec.PromptAt.UTC().Truncate(time.Second)
		ac.PromptAt = &t
	}
	if !rec.CompactedAt.IsZero() {
		t := rec.CompactedAt.UTC().Truncate(time.Second)
		ac.CompactedAt = &t
	}
	if rec.TodoSource != "" {
		s := rec.TodoSource
		ac.TodoSource = &s
	}
	for _, t := range rec.Visible() {
		ac.Todos = append(ac.Todos, AgentTodo{Content: t.Content, Status: t.Status, ActiveForm: t.ActiveForm})
	}
	if rec.Branch != "" {
		b := rec.Branch
		ac.Branch = &b
		if branch != "" && branch != rec.Branch {
			ac.Notes = append(ac.Notes, fmt.Sprintf("captured on branch %s; the checkout is now on %s", textfmt.Quote(rec.Branch), textfmt.Quote(branch)))
		}
	}
	if resumed != "" && rec.SessionID != "" && resumed != rec.SessionID {
		ac.Notes = append(ac.Notes, "captured from another session of the agent than the one resumed")
	}
	if now.Sub(rec.CapturedAt) > AgentContextStaleAfter {
		ac.Stale = true
		ac.Notes = append(ac.Notes, fmt.Sprintf("captured %s ago, more than the %s after which it is not handed back", ac.Age, textfmt.Duration(AgentContextStaleAfter)))
	}
	return ac
}
