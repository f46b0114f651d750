//go:build !unix && !windows

package agentctx

import "io/fs"

// fileID is empty where gsd knows no file identity: the path, offset and hash decide.
func fileID(fs.FileInfo) string { return "" }
