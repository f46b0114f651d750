package agentctx

// Step is one capture's work on a transcript: what Read did, the agent it was told to be, and
// what the fold met.
type Step struct {
	Window
	Agent   string
	Foreign bool // a subagent's transcript: the capture was left as it was
}

// Advance reads what was appended to the transcript at path since cur and folds it into c, a
// line at a time. When the transcript rewinds to before what was read (Gemini CLI's
// $rewindTo), c is folded afresh from the transcript's end. A subagent's transcript leaves c as
// it was.
func Advance(c *Capture, path string, cur Cursor, opt Options) (Step, error) {
	fold := c.Clone()
	s, r, err := advance(&fold, path, cur, opt)
	if err != nil {
		return Step{}, err
	}
	if r.Refold && !s.Fresh {
		read := s.Read
		fold = Capture{}
		if s, r, err = advance(&fold, path, Cursor{}, opt); err != nil {
			return Step{}, err
		}
		s.Read += read
	}
	s.Foreign = r.Foreign
	if !r.Foreign {
		*c = fold
	}
	return s, nil
}

// advance is one read of the transcript folded into c. The agent is told by the transcript's
// name, else by its first line.
func advance(c *Capture, path string, cur Cursor, opt Options) (Step, Result, error) {
	var f *folder
	start := func(first []byte) {
		if f == nil {
			f = newFolder(c, Detect(path, first), opt)
		}
	}
	w, err := Read(path, cur, Lines{
		Each:  func(line []byte) { start(line); f.line(line) },
		Long:  func(prefix []byte) { start(prefix); f.long(prefix) },
		Wants: func(prefix []byte) bool { start(prefix); return f.wants(prefix) },
	})
	if err != nil {
		return Step{}, Result{}, err
	}
	start(nil)
	r := f.finish()
	return Step{Window: w, Agent: f.agent}, r, nil
}
