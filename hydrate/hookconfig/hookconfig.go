// Package hookconfig adds gsd's SessionStart hook to a Claude Code settings file and removes it.
//
// A settings file is the user's: it holds permissions, environment, other hooks, in an order and
// layout they chose. So it is never decoded and re-encoded: a small scanner records where each
// JSON value lies, and an edit splices bytes at those spans, in the indentation the file already
// uses. Installing twice changes nothing; uninstalling removes only the hooks whose command is
// gsd's, and the containers that this leaves empty.
package hookconfig

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

// Event and Matcher are where the hook goes: Claude Code's SessionStart event, for each of its
// sources (a new conversation, a resumed one, /clear, and after compaction): exactly the spec's
// hydration triggers.
const (
	Event   = "SessionStart"
	Matcher = "startup|resume|clear|compact"
	// Command is the hook command gsd installs.
	Command = "gsd hook session-start"
)

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
func IsGSDCommand(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) < 3 || f[1] != "hook" || f[2] != "session-start" {
		return false
	}
	prog := strings.Trim(f[0], `"'`)
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

// InstallFile adds the hook to the settings file at path (creating it and its directory when
// missing) and, unless dryRun, writes it atomically.
func InstallFile(path, command string, dryRun bool) (*Change, error) {
	return editFile(path, dryRun, func(src []byte) ([]byte, bool, error) { return Install(src, command) })
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
	Matcher string      `json:"matcher"`
	Hooks   []hookEntry `json:"hooks"`
}

// Install returns settings src with a SessionStart hook running command added, and whether
// anything changed: nothing does when a gsd SessionStart hook is already there.
func Install(src []byte, command string) ([]byte, bool, error) {
	group := matcherGroup{Matcher: Matcher, Hooks: []hookEntry{{Type: "command", Command: command}}}
	if len(bytes.TrimSpace(src)) == 0 {
		out, err := marshal(map[string]any{"hooks": map[string]any{Event: []matcherGroup{group}}}, "", "  ")
		return append(out, '\n'), true, err
	}
	root, err := parse(src)
	if err != nil {
		return nil, false, err
	}
	hooks, ok := root.member("hooks")
	if !ok {
		out, err := insertMember(src, root, "hooks", map[string]any{Event: []matcherGroup{group}})
		return out, err == nil, err
	}
	if hooks.kind != '{' {
		return nil, false, errors.New(`"hooks" is not an object; not touching it`)
	}
	event, ok := hooks.member(Event)
	if !ok {
		out, err := insertMember(src, hooks, Event, []matcherGroup{group})
		return out, err == nil, err
	}
	if event.kind != '[' {
		return nil, false, fmt.Errorf(`"hooks.%s" is not an array; not touching it`, Event)
	}
	if _, _, found := findOurs(event); found {
		return src, false, nil
	}
	out, err := insertElem(src, event, group)
	return out, err == nil, err
}

// Uninstall returns settings src without gsd's SessionStart hooks, and whether anything changed.
// A matcher group left with no hooks is removed, then an empty SessionStart list, then an empty
// "hooks" object.
func Uninstall(src []byte) ([]byte, bool, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return src, false, nil
	}
	changed := false
	for {
		root, err := parse(src)
		if err != nil {
			return nil, false, err
		}
		event, ok := root.path("hooks", Event)
		if !ok || event.kind != '[' {
			break
		}
		gi, hi, found := findOurs(event)
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
	if !changed {
		return src, false, nil
	}
	// Containers the removal left empty go too, innermost first.
	for _, keys := range [][]string{{"hooks", Event}, {"hooks"}} {
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

// findOurs finds the first hook in a SessionStart list whose command is gsd's: the index of its
// matcher group and its index in the group's hooks.
func findOurs(event *node) (group, hook int, found bool) {
	for gi, g := range event.elems {
		list, ok := g.member("hooks")
		if g.kind != '{' || !ok || list.kind != '[' {
			continue
		}
		for hi, h := range list.elems {
			if c, ok := h.member("command"); ok && c.kind == '"' && IsGSDCommand(c.str) {
				return gi, hi, true
			}
		}
	}
	return 0, 0, false
}
