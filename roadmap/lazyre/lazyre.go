// Package lazyre holds regular expressions compiled on first use, as Go's own
// internal/lazyregexp: a variable of one is laid out by the linker, with no code run when gsd
// starts, so a command pays only for the expressions it uses. The roadmap and STATE.md readers
// share it.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time Get is called.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled on first use; an invalid expr panics then, as
// regexp.MustCompile does, which its tests catch.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Get returns the compiled expression.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
