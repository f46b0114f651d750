package planfile

import "testing"

func TestBlock(t *testing.T) {
	for _, tc := range []struct {
		name, src, text string
		line            int
		ok              bool
	}{
		{"plain", "---\nx: 1\n---\n\n<objective>\nDo it.\n</objective>\n", "\nDo it.\n", 5, true},
		{"one line", "  <objective>Do it.</objective>\n", "Do it.", 1, true},
		{"fenced mention first", "```\n<objective>no</objective>\n```\n<objective>\nyes\n</objective>\n", "\nyes\n", 4, true},
		{"end tag quoted in a fence", "<objective>\na\n```\n</objective>\n```\nb\n</objective>\n", "\na\n```\n</objective>\n```\nb\n", 1, true},
		{"commented out", "<!--\n<objective>no</objective>\n-->\n", "", 0, false},
		{"inside tasks only", "<tasks>\n<task type=\"auto\">\n<objective>no</objective>\n</task>\n</tasks>\n", "", 0, false},
		{"never closed", "<objective>\nforever\n", "", 0, false},
		{"mid-line is prose", "see <objective>x</objective>\n", "", 0, false},
	} {
		c, ok := Scan([]byte(tc.src)).Block("objective")
		if ok != tc.ok || c.Text != tc.text || c.Line != tc.line {
			t.Errorf("%s: Block = %q line %d ok %v; want %q line %d ok %v", tc.name, c.Text, c.Line, ok, tc.text, tc.line, tc.ok)
		}
	}
}
