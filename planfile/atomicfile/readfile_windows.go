package atomicfile

// readRegular is ReadFile through package os.
func readRegular(name string, limit int64) ([]byte, error) { return readPortable(name, limit) }
