package agentctx

// Step is one capture's work on a transcript: what Read gave, the agent it was told to be, and
// what the fold met.
type Step struct {
	Window
	Agent   string
	Skipped int  // lines over MaxLine, skipped undecoded
	Foreign bool // a subagent's transcript: the capture was left as it was
}

// Advance reads what was appended to the transcript at path since cur and folds it into c.
// When the transcript rewinds to before what was read (Gemini CLI's $rewindTo), c is folded
// afresh from the transcript's end. A subagent's transcript leaves c as it was.
func Advance(c *Capture, path string, cur Cursor, opt Options) (Step, error) {
	w, err := Read(path, cur)
	if err != nil {
		return Step{}, err
	}
	s := Step{Window: w, Agent: Detect(path, w.Data)}
	fold := c.Clone()
	r := Fold(&fold, s.Agent, w.Data, opt)
	if r.Refold && !w.Fresh {
		tw, err := Read(path, Cursor{})
		if err != nil {
			return Step{}, err
		}
		fold = Capture{}
		r = Fold(&fold, s.Agent, tw.Data, opt)
		tw.Read += w.Read
		s.Window = tw
	}
	s.Skipped, s.Foreign = r.Skipped, r.Foreign
	if !r.Foreign {
		*c = fold
	}
	return s, nil
}
