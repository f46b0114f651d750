package report

import (
	"github.com/gsd-tools/gsd/hydrate/config"
)

// Config is gsd config --json.
type Config struct {
	SchemaVersion int                `json:"schemaVersion"`
	Settings      map[string]Setting `json:"settings"`
}

// Setting is a setting's value and where it came from.
type Setting struct {
	Value  any    `json:"value"`
	Source string `json:"source"`
}

// ConfigOf is the report of the effective settings s.
func ConfigOf(s *config.Settings) Config {
	settings := make(map[string]Setting, len(config.Keys))
	for _, k := range config.Keys {
		settings[k] = Setting{s.Typed(k), string(s.Sources[k])}
	}
	return Config{SchemaVersion, settings}
}

// Hook is gsd hook install --json and gsd hook uninstall --json.
type Hook struct {
	SchemaVersion int    `json:"schemaVersion"`
	SettingsFile  string `json:"settingsFile"`
	Scope         string `json:"scope"`
	Changed       bool   `json:"changed"`
	DryRun        bool   `json:"dryRun"`
}

// HookOf is the report of an edit of the agent's settings file, as shown (project-relative, or
// the user's own), in scope: whether it changed, or (dryRun) would.
func HookOf(settingsFile, scope string, changed, dryRun bool) Hook {
	return Hook{SchemaVersion, settingsFile, scope, changed, dryRun}
}

// Version is gsd version --json.
type Version struct {
	SchemaVersion int    `json:"schemaVersion"`
	Version       string `json:"version"`
}

// VersionOf is the report of gsd's version v.
func VersionOf(v string) Version { return Version{SchemaVersion, v} }
