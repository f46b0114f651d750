package planfile

import "bytes"

// Block returns the first top-level element called name outside the <tasks> blocks, such as a
// plan's <objective>: its start tag at the start of a line (after indentation), outside fenced
// code and HTML comments, and its end tag "</name>" later on. The text is returned as written.
func (p *File) Block(name string) (Child, bool) {
	src := p.Src
	open := []byte("<" + name + ">")
	closeTag := []byte("</" + name + ">")
	fs := fences{src: src}
	for pos := 0; pos < len(src); {
		lineEnd := lineEndAt(src, pos)
		trimmed := bytes.TrimLeft(src[pos:lineEnd], " \t")
		at := lineEnd - len(trimmed)
		switch {
		case p.inBlock(at):
			// Inside <tasks>: a task's own <objective> is not the plan's.
		case len(trimmed) > 0 && (trimmed[0] == '`' || trimmed[0] == '~'):
			if end, ok := fs.skip(at); ok {
				pos = end
				continue
			}
		case bytes.HasPrefix(trimmed, []byte("<!--")):
			end := bytes.Index(src[at+4:], []byte("-->"))
			if end < 0 {
				return Child{}, false
			}
			pos = at + 4 + end + 3
			continue
		case bytes.HasPrefix(trimmed, open):
			start := at + len(open)
			end, ok := findBlockEnd(src, start, closeTag)
			if !ok {
				return Child{}, false
			}
			return Child{
				Name: name,
				Text: string(src[start:end]),
				Line: p.Line(at),
				Span: Span{at, end + len(closeTag)},
			}, true
		}
		pos = nextLine(src, lineEnd)
	}
	return Child{}, false
}

func (p *File) inBlock(off int) bool {
	for _, b := range p.Blocks {
		if off >= b.Start && off < b.End {
			return true
		}
	}
	return false
}

// findBlockEnd finds closeTag from off, skipping fenced code (which may quote the tag).
func findBlockEnd(src []byte, off int, closeTag []byte) (int, bool) {
	// The rest of the opening line first: <objective>text</objective> on one line.
	le := lineEndAt(src, off)
	if i := bytes.Index(src[off:le], closeTag); i >= 0 {
		return off + i, true
	}
	for pos := nextLine(src, le); pos < len(src); {
		le = lineEndAt(src, pos)
		trimmed := bytes.TrimLeft(src[pos:le], " \t")
		if len(trimmed) > 0 && (trimmed[0] == '`' || trimmed[0] == '~') {
			if end, ok := skipFence(src, le-len(trimmed)); ok {
				pos = end
				continue
			}
		}
		if i := bytes.Index(src[pos:le], closeTag); i >= 0 {
			return pos + i, true
		}
		pos = nextLine(src, le)
	}
	return 0, false
}
