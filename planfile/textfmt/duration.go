package textfmt

import (
	"strings"
	"time"
)

// Duration writes d as gsd writes every duration, in text and in JSON alike: Go's syntax
// without the zero units at its end ("2h", "90m" as "1h30m", "10s", "1.5s", "500ms"), which
// every duration gsd reads (a setting, --idle-after) takes back.
func Duration(d time.Duration) string {
	out := d.String()
	if strings.HasSuffix(out, "m0s") {
		out = strings.TrimSuffix(out, "0s")
	}
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
}

// Elapsed writes how long something has lasted, for people: d cut down to its largest whole
// unit, hours, minutes or seconds, in Duration's syntax ("3h" for 3h27m, "72h" for three days,
// "45s"). A negative d, a clock set back, is "0s".
func Elapsed(d time.Duration) string {
	switch {
	case d <= 0:
		d = 0
	case d >= time.Hour:
		d = d.Truncate(time.Hour)
	case d >= time.Minute:
		d = d.Truncate(time.Minute)
	default:
		d = d.Truncate(time.Second)
	}
	return Duration(d)
}
