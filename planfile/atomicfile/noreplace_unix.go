//go:build unix && !linux

package atomicfile

// renameNoReplace moves oldpath to newpath unless newpath exists. Other Unixes have no portable
// rename-without-replace (macOS's renamex_np and the BSDs differ), but all have link(2).
func renameNoReplace(oldpath, newpath string) error {
	return linkNoReplace(oldpath, newpath)
}
