// Command gendocs writes gsd's man pages and Markdown command reference from its cobra command
// tree (make docs): a page per command, and one per help topic (gsd help TOPIC), which cobra's
// generators leave out. It is a separate program so that the documentation generator and its
// dependencies stay out of the gsd binary.
//
// The man pages go where man looks for them under a directory: man1/gsd-hydrate.1,
// man7/gsd-position.7, ... (man -M bin/docs/man gsd-hydrate; make install-man copies them to a
// share/man that man finds).
//
//	go run ./cmd/gendocs -man bin/docs/man -md bin/docs/md
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/gsd-tools/gsd/cmd"
)

func main() {
	manDir := flag.String("man", "bin/docs/man", "write man pages (sections 1 and 7) to `DIR`")
	mdDir := flag.String("md", "bin/docs/md", "write Markdown pages to `DIR`")
	flag.Parse()
	if err := run(*manDir, *mdDir); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}

func run(manDir, mdDir string) error {
	// SOURCE_DATE_EPOCH makes the pages' date reproducible, as for the binary.
	date := time.Now()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH=%q: %v", s, err)
		}
		date = time.Unix(n, 0).UTC()
	}
	man1, man7 := filepath.Join(manDir, "man1"), filepath.Join(manDir, "man7")
	for _, d := range []string{man1, man7, mdDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}

	root := markdownTree(cmd.CommandTree())
	topics := helpTopics(root)
	var see []string
	for _, t := range topics {
		see = append(see, fmt.Sprintf("**gsd-%s(7)**", t.Name()))
	}
	root.Long += "\n\nHelp topics (gsd help TOPIC): " + strings.Join(see, ", ") + "."
	// No Title: each page is headed by its own name (GSD-HYDRATE), as man shows it.
	header := &doc.GenManHeader{Section: "1", Source: "gsd " + root.Version, Manual: "gsd manual", Date: &date}
	if err := doc.GenManTree(root, header, man1); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	for _, t := range topics {
		if err := os.WriteFile(filepath.Join(man7, "gsd-"+t.Name()+".7"), topicMan(t, header), 0o644); err != nil {
			return fmt.Errorf("man pages: %w", err)
		}
	}

	root = markdownTree(cmd.CommandTree())
	var links strings.Builder
	links.WriteString("\n\nHelp topics (gsd help TOPIC):\n")
	for _, t := range topics {
		fmt.Fprintf(&links, "\n* [gsd help %s](%s) - %s", t.Name(), topicMarkdownFile(t), t.Short)
	}
	root.Long += links.String()
	if err := doc.GenMarkdownTree(root, mdDir); err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	for _, t := range topics {
		if err := os.WriteFile(filepath.Join(mdDir, topicMarkdownFile(t)), topicMarkdown(t), 0o644); err != nil {
			return fmt.Errorf("markdown: %w", err)
		}
	}
	return nil
}

// markdownTree is root with every command's texts made the Markdown that cobra's generators
// take them as (markdown), and returns root.
func markdownTree(root *cobra.Command) *cobra.Command {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAdditionalHelpTopicCommand() { // a topic is written in Markdown already
			c.Short, c.Long = markdown(c.Short), markdown(c.Long)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return root
}

// markdown is a command's help text, written for a terminal, as Markdown that renders the same:
// a line indented after a blank line (an example, a table of tools) and the indented lines
// after it stay as written, in a code block; in the rest every character Markdown would take
// for markup is escaped, so "its <task> elements" keeps its <task> (as HTML it would be
// dropped) and "mark-*" its star.
func markdown(text string) string {
	lines := strings.Split(text, "\n")
	pre := false
	for i, l := range lines {
		indented := strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")
		pre = indented && (pre || i == 0 || strings.TrimSpace(lines[i-1]) == "")
		if pre {
			lines[i] = "    " + l
			continue
		}
		lines[i] = markdownEscaper.Replace(l)
	}
	return strings.Join(lines, "\n")
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "<", `\<`, ">", `\>`,
	"[", `\[`, "]", `\]`, "&", `\&`, "#", `\#`)

// helpTopics are the root's additional help topics (commands without Run), which cobra's
// generators skip.
func helpTopics(root *cobra.Command) []*cobra.Command {
	var ts []*cobra.Command
	for _, c := range root.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			ts = append(ts, c)
		}
	}
	return ts
}

// topicMan is topic t as a man page of section 7 (conventions and miscellany, as git's
// gitrevisions(7)), its text taken as the Markdown it is written in: its ## headings become
// sections of the page.
func topicMan(t *cobra.Command, h *doc.GenManHeader) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%% \"GSD-%s\" \"7\" \"%s\" \"%s\" \"%s\"\n", strings.ToUpper(t.Name()), h.Date.Format("Jan 2006"), h.Source, h.Manual)
	fmt.Fprintf(&b, "# NAME\ngsd-%s \\- %s\n\n", t.Name(), t.Short)
	fmt.Fprintf(&b, "# SYNOPSIS\n**gsd help %s**\n\n", t.Name())
	fmt.Fprintf(&b, "# DESCRIPTION\n%s\n\n", t.Long)
	b.WriteString("# SEE ALSO\n**gsd(1)**\n")
	return md2man.Render(b.Bytes())
}

// topicMarkdownFile is the name of topic t's Markdown page, beside cobra's gsd_hydrate.md.
func topicMarkdownFile(t *cobra.Command) string { return "gsd_help_" + t.Name() + ".md" }

// topicMarkdown is topic t as a Markdown page in the shape of cobra's command pages: its title
// a level-2 heading, its own ## headings one level below.
func topicMarkdown(t *cobra.Command) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "## gsd help %s\n\n%s\n\n", t.Name(), t.Short)
	inCode := false
	for _, line := range strings.Split(t.Long, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(line, "#") {
			line = "#" + line
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\n### SEE ALSO\n\n* [gsd](gsd.md)\t - " + t.Root().Short + "\n")
	return b.Bytes()
}
