// Command gendocs writes gsd's man pages and Markdown command reference from its cobra command
// tree (make docs). It is a separate program so that the documentation generator and its
// dependencies stay out of the gsd binary.
//
//	go run ./cmd/gendocs -man bin/docs/man -md bin/docs/md
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra/doc"

	"github.com/gsd-tools/gsd/cmd"
)

func main() {
	manDir := flag.String("man", "bin/docs/man", "write man pages (section 1) to `DIR`")
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
	for _, d := range []string{manDir, mdDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	root := cmd.CommandTree()
	header := &doc.GenManHeader{Title: "GSD", Section: "1", Source: "gsd " + root.Version, Manual: "gsd manual", Date: &date}
	if err := doc.GenManTree(root, header, manDir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	if err := doc.GenMarkdownTree(cmd.CommandTree(), mdDir); err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	return nil
}
