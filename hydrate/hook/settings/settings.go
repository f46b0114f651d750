// Package settings adds gsd's lifecycle hooks (SessionStart, PreCompact, SessionEnd, Stop) to an agent's
// settings file (Claude Code's, Gemini CLI's, Codex's hooks.json) and removes them.
//
// A settings file is the user's: it holds permissions, environment, other hooks, in an order and
// layout they chose. So it is never decoded and re-encoded: a small scanner records where each
// JSON value lies, and an edit splices bytes at those spans, in the indentation the file already
// uses. Installing twice changes nothing; uninstalling removes only the hooks whose command is
// gsd's, and the containers that this leaves empty.
package settings

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// Event and Matcher are where the hook goes: Claude Code's SessionStart event, for each of the
// sources it documents (a new conversation, a resumed one, /clear, after compaction): the spec's
// hydration triggers.
const (
	Event   = "SessionStart"
	Matcher = "startup|resume|clear|compact"
	// Command is the hook command gsd installs.
	Command = "gsd hook session-start"
)

// Spec is one of the lifecycle hooks gsd installs: the event, its matcher ("" for every
// occurrence) and the gsd hook subcommand that serves it.
type Spec struct {
	Event, Matcher, Sub string
}

// Specs are gsd's hooks: SessionStart gives the agent the brief and journals the rehydration,
// PreCompact keeps a pre-compact snapshot, SessionEnd journals the detach; PreCompact,
// SessionEnd and Stop (each turn's end) capture the agent's own context from its transcript.
var Specs = []Spec{
	{Event, Matcher, "session-start"},
	{"PreCompact", "", "pre-compact"},
	{"SessionEnd", "", "session-end"},
	{"Stop", "", "turn-end"},
}

// GeminiSpecs are the same hooks for Gemini CLI, whose settings.json has the same "hooks" layout:
// its SessionStart (sources startup, resume, clear; a lifecycle matcher is an exact string, so
// none is given), PreCompress, SessionEnd and AfterAgent (a turn's end); and BeforeAgent, which
// hands the captured context back on the turn after a compression (its SessionStart does not
// follow one).
var GeminiSpecs = []Spec{
	{Event, "", "session-start"},
	{"PreCompress", "", "pre-compact"},
	{"SessionEnd", "", "session-end"},
	{"AfterAgent", "", "turn-end"},
	{"BeforeAgent", "", "turn-start"},
}

// CodexSpecs are the hooks for Codex CLI, whose hooks.json has the same layout: SessionStart
// (sources startup, resume, clear, and compact in later versions; the matcher is a regular
// expression), PreCompact and SessionEnd (added to Codex in July 2026; older versions ignore
// it).
var CodexSpecs = []Spec{
	{Event, "startup|resume|clear|compact", "session-start"},
	{"PreCompact", "", "pre-compact"},
	{"SessionEnd", "", "session-end"},
	{"Stop", "", "turn-end"},
}

// Guard makes a hook command safe to share: it runs command only where its program is on the
// PATH, and otherwise exits 0 without a word, so a teammate without gsd sees nothing. The guard
// is POSIX shell, which is how Claude Code runs hooks everywhere (on Windows, through Git Bash),
// and Codex and Gemini CLI on Linux and macOS.
func Guard(command string) string {
	prog := strings.Fields(command)[0]
	return "command -v " + prog + " >/dev/null 2>&1 && " + command + " || true"
}

// unguard is the command a hook command guards (Guard), and whether it is guarded.
func unguard(cmd string) (string, bool) {
	rest, ok := strings.CutPrefix(cmd, "command -v ")
	if !ok {
		return cmd, false
	}
	prog, rest, ok := strings.Cut(rest, " >/dev/null 2>&1 && ")
	if !ok {
		return cmd, false
	}
	inner, ok := strings.CutSuffix(rest, " || true")
	if f := strings.Fields(inner); !ok || len(f) == 0 || f[0] != prog {
		return cmd, false
	}
	return inner, true
}

// CodexProjectHooks is Codex CLI's project hooks file under root.
func CodexProjectHooks(root string) string {
	return filepath.Join(root, ".codex", "hooks.json")
}

// CodexUserHooks is Codex CLI's user hooks file: in codexHome (CODEX_HOME) when it is set, else
// in home's .codex directory.
func CodexUserHooks(home, codexHome string) string {
	if codexHome != "" {
		return filepath.Join(codexHome, "hooks.json")
	}
	return filepath.Join(home, ".codex", "hooks.json")
}

// GeminiProjectSettings is Gemini CLI's project settings file under root.
func GeminiProjectSettings(root string) string {
	return filepath.Join(root, ".gemini", "settings.json")
}

// GeminiUserSettings is Gemini CLI's user settings file.
func GeminiUserSettings(home string) string {
	return filepath.Join(home, ".gemini", "settings.json")
}

// InstallFileFor is InstallFile with the hooks of specs (Specs or GeminiSpecs).
func InstallFileFor(path, command string, specs []Spec, dryRun bool) (*Change, error) {
	return editFile(path, dryRun, func(src []byte) ([]byte, bool, error) { return installAll(src, command, specs) })
}

// UninstallFileFor is UninstallFile with the hooks of specs.
func UninstallFileFor(path string, specs []Spec, dryRun bool) (*Change, error) {
	return editFile(path, dryRun, func(src []byte) ([]byte, bool, error) { return uninstall(src, specs) })
}

// ProjectSettings is the project's shared settings file under root.
func ProjectSettings(root string) string {
	return filepath.Join(root, ".claude", "settings.json")
}

// UserSettings is the user's settings file: in configDir (CLAUDE_CONFIG_DIR) when it is set,
// else in home's .claude directory.
func UserSettings(home, configDir string) string {
	if configDir != "" {
		return filepath.Join(configDir, "settings.json")
	}
	return filepath.Join(home, ".claude", "settings.json")
}

// IsGSDCommand reports whether a hook command is gsd's SessionStart hook, however gsd is named
// on the command line ("gsd", "/usr/local/bin/gsd", "gsd.exe").
func IsGSDCommand(cmd string) bool { return isGSDHook(cmd, "session-start") }

// isGSDHook reports whether a hook command runs gsd hook sub, bare or guarded (Guard). A
// program in quotes may hold spaces, as Windows' usual place for it does
// ("C:\Program Files\gsd\gsd.exe").
func isGSDHook(cmd, sub string) bool {
	inner, _ := unguard(cmd)
	var prog string
	f := strings.Fields(inner)
	if q := strings.TrimLeft(inner, " \t"); q != "" && (q[0] == '"' || q[0] == '\'') {
		end := strings.IndexByte(q[1:], q[0]) + 1
		if rest := q[end+1:]; end > 0 && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			prog = q[1:end]
			f = append([]string{prog}, strings.Fields(rest)...)
		}
	}
	if len(f) < 3 || f[1] != "hook" || f[2] != sub {
		return false
	}
	if prog == "" {
		prog = strings.Trim(f[0], `"'`)
	}
	base := prog[strings.LastIndexAny(prog, `/\`)+1:]
	return base == "gsd" || base == "gsd.exe"
}

// Change is an edit of a settings file, made or to be made.
type Change struct {
	Path    string
	Before  []byte // nil when the file did not exist
	After   []byte
	Changed bool
}

// InstallFile adds gsd's hooks (InstallAll) to the settings file at path (creating it and its
// directory when missing) and, unless dryRun, writes it atomically.
func InstallFile(path, command string, dryRun bool) (*Change, error) {
	return editFile(path, dryRun, func(src []byte) ([]byte, bool, error) { return InstallAll(src, command) })
}

// UninstallFile removes gsd's hook from the settings file at path. A missing file is no change.
func UninstallFile(path string, dryRun bool) (*Change, error) {
	return editFile(path, dryRun, Uninstall)
}

// keepBOM runs edit on src without a leading UTF-8 byte order mark (which JSON does not allow
// but Windows editors write) and puts the mark back.
func keepBOM(src []byte, edit func([]byte) ([]byte, bool, error)) ([]byte, bool, error) {
	bom := []byte("\xef\xbb\xbf")
	if !bytes.HasPrefix(src, bom) {
		return edit(src)
	}
	out, changed, err := edit(src[len(bom):])
	if err != nil {
		return nil, false, err
	}
	return append(bom[:len(bom):len(bom)], out...), changed, nil
}

// MaxSettingsSize bounds the settings file gsd reads: real ones are a few kilobytes.
const MaxSettingsSize = 1 << 20

// lockTimeout bounds how long an edit waits for another gsd editing the same settings file,
// which holds the lock for milliseconds.
const lockTimeout = 10 * time.Second

func editFile(path string, dryRun bool, edit func([]byte) ([]byte, bool, error)) (*Change, error) {
	if dryRun {
		return editLocked(path, true, edit)
	}
	// Every writer of the file locks its directory (created first, and synced into its parent),
	// so two installs at once cannot lose each other's edit.
	dir := filepath.Dir(path)
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		// No directory, so no file: an edit that leaves no file as it is (an uninstall with
		// nothing installed) creates neither, nor a lock.
		if c, err := editLocked(path, true, edit); err != nil || !c.Changed {
			return c, err
		}
	}
	if err := atomicfile.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	l, err := atomicfile.LockDir(context.Background(), dir, lockTimeout)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	atomicfile.RemoveTemps(dir, filepath.Base(path))
	return editLocked(path, false, edit)
}

func editLocked(path string, dryRun bool, edit func([]byte) ([]byte, bool, error)) (*Change, error) {
	c := &Change{Path: path}
	src, err := atomicfile.ReadFile(path, MaxSettingsSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		c.Before = src
	}
	out, changed, err := keepBOM(c.Before, edit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.After, c.Changed = out, changed
	if !changed || dryRun {
		return c, nil
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return nil, err
	}
	return c, nil
}

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

type matcherGroup struct {
	Matcher string      `json:"matcher,omitempty"`
	Hooks   []hookEntry `json:"hooks"`
}

// Install returns settings src with a SessionStart hook running command added, and whether
// anything changed: nothing does when a gsd SessionStart hook is already there.
func Install(src []byte, command string) ([]byte, bool, error) {
	return installSpec(src, Specs[0], command)
}

// InstallAll is Install, plus the other lifecycle hooks of Specs when command ends in
// "session-start" (their commands are command with that word replaced by theirs, guarded when
// command is).
func InstallAll(src []byte, command string) ([]byte, bool, error) {
	return installAll(src, command, Specs)
}

func installAll(src []byte, command string, specs []Spec) ([]byte, bool, error) {
	out, changed, err := installSpec(src, specs[0], command)
	if err != nil {
		return nil, false, err
	}
	inner, guarded := unguard(command)
	prefix, ok := strings.CutSuffix(inner, specs[0].Sub)
	if !ok {
		return out, changed, nil
	}
	for _, sp := range specs[1:] {
		cmd := prefix + sp.Sub
		if guarded {
			cmd = Guard(cmd)
		}
		o, c, err := installSpec(out, sp, cmd)
		if err != nil {
			return nil, false, err
		}
		out, changed = o, changed || c
	}
	return out, changed, nil
}

func installSpec(src []byte, sp Spec, command string) ([]byte, bool, error) {
	group := matcherGroup{Matcher: sp.Matcher, Hooks: []hookEntry{{Type: "command", Command: command}}}
	if len(bytes.TrimSpace(src)) == 0 {
		out, err := marshal(map[string]any{"hooks": map[string]any{sp.Event: []matcherGroup{group}}}, "", "  ")
		return append(out, '\n'), true, err
	}
	root, err := parse(src)
	if err != nil {
		return nil, false, err
	}
	hooks, ok := root.member("hooks")
	if !ok {
		out, err := insertMember(src, root, "hooks", map[string]any{sp.Event: []matcherGroup{group}})
		return out, err == nil, err
	}
	if hooks.kind != '{' {
		return nil, false, errors.New(`"hooks" is not an object; not touching it`)
	}
	event, ok := hooks.member(sp.Event)
	if !ok {
		out, err := insertMember(src, hooks, sp.Event, []matcherGroup{group})
		return out, err == nil, err
	}
	if event.kind != '[' {
		return nil, false, fmt.Errorf(`"hooks.%s" is not an array; not touching it`, sp.Event)
	}
	if gi, hi, found := findOurs(event, sp.Sub); found {
		if out, ok := upgradeCommand(src, event.elems[gi], hi, command); ok {
			// The matcher too, in the file as it now is.
			o, _, err := installSpec(out, sp, command)
			return o, err == nil, err
		}
		return upgradeMatcher(src, event.elems[gi], sp)
	}
	out, err := insertElem(src, event, group)
	return out, err == nil, err
}

// Uninstall returns settings src without gsd's hooks (every event of Specs), and whether
// anything changed. A matcher group left with no hooks is removed, then an empty event list,
// then an empty "hooks" object.
func Uninstall(src []byte) ([]byte, bool, error) { return uninstall(src, Specs) }

func uninstall(src []byte, specs []Spec) ([]byte, bool, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	changed := false
	for _, sp := range specs {
		for {
			root, err := parse(src)
			if err != nil {
				return nil, false, err
			}
			event, ok := root.path("hooks", sp.Event)
			if !ok || event.kind != '[' {
				break
			}
			gi, hi, found := findOurs(event, sp.Sub)
			if !found {
				break
			}
			group := event.elems[gi]
			if list, _ := group.member("hooks"); len(list.elems) > 1 {
				src = removeElem(src, list, hi)
			} else {
				src = removeElem(src, event, gi)
			}
			changed = true
		}
	}
	if !changed {
		return src, false, nil
	}
	// Containers the removal left empty go too, innermost first.
	var paths [][]string
	for _, sp := range specs {
		paths = append(paths, []string{"hooks", sp.Event})
	}
	for _, keys := range append(paths, []string{"hooks"}) {
		root, err := parse(src)
		if err != nil {
			return nil, false, err
		}
		parent, _ := root.path(keys[:len(keys)-1]...)
		v, ok := root.path(keys...)
		if ok && len(v.elems) == 0 && len(v.members) == 0 && (v.kind == '[' || v.kind == '{') {
			src = removeMember(src, parent, keys[len(keys)-1])
		}
	}
	return src, true, nil
}

// upgradeCommand guards (Guard) gsd's hook hi of group when command is that hook's command
// guarded: an older gsd installed bare commands in the shared settings file. Any other command
// (a full path, a wrapper) is the user's choice, kept as it is.
func upgradeCommand(src []byte, group *node, hi int, command string) ([]byte, bool) {
	inner, guarded := unguard(command)
	list, _ := group.member("hooks")
	c, ok := list.elems[hi].member("command")
	if !guarded || !ok || c.str != inner {
		return src, false
	}
	q, err := marshal(command, "", "")
	if err != nil {
		return src, false
	}
	return splice(src, c.start, c.end, string(q)), true
}

// upgradeMatcher brings the matcher of a group that holds gsd's hook alone up to date (an
// install by an older gsd has SessionStart's "fork", which Claude Code does not document); a
// group the user shares with other hooks is theirs to keep as it is.
func upgradeMatcher(src []byte, group *node, sp Spec) ([]byte, bool, error) {
	m, ok := group.member("matcher")
	list, _ := group.member("hooks")
	if sp.Matcher == "" || !ok || m.kind != '"' || m.str == sp.Matcher || len(list.elems) != 1 {
		return src, false, nil
	}
	q, err := marshal(sp.Matcher, "", "")
	if err != nil {
		return nil, false, err
	}
	return splice(src, m.start, m.end, string(q)), true, nil
}

// findOurs finds the first hook in an event's list whose command is gsd hook sub: the index of
// its matcher group and its index in the group's hooks.
func findOurs(event *node, sub string) (group, hook int, found bool) {
	for gi, g := range event.elems {
		list, ok := g.member("hooks")
		if g.kind != '{' || !ok || list.kind != '[' {
			continue
		}
		for hi, h := range list.elems {
			if c, ok := h.member("command"); ok && c.kind == '"' && isGSDHook(c.str, sub) {
				return gi, hi, true
			}
		}
	}
	return 0, 0, false
}
