package rootfs

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The listing cache keeps the names of a directory of directories (a project's phases/, its
// quick tasks) and of each of its subdirectories in a file of the user's cache directory, each
// listing with its directory's device, inode, size, ctime and mtime. Listing is most of what a
// project's size adds to a run: ext4 hashes every name of a directory and sorts them on each
// listing, and a directory costs an open, two reads and a close where a stat of it is one call.
// While a directory has the device, inode, size and times the cache records, it holds the names
// the cache holds: creating, removing or renaming an entry sets the directory's ctime to the
// current time, which nothing in user space can set back. Git's untracked cache rests on the
// same evidence.
//
// A listing is stored only when its directory's last change had settled before the listing
// began (settleTime): a change during the listing, or after it within the same tick of a
// coarse file-system clock, still gives a ctime other than the one recorded. A cache file is
// written without fsync, so a crash can leave it torn; it then fails its checks and the
// directories are listed afresh.

// cacheMinDirSize is the size, by st_size, from which a directory's own listing is worth a
// cache file even without its subdirectories' (a user's directory of archived sessions): on
// ext4 some 170 to 360 entries, for names of 30 to 12 characters; on tmpfs 818, whatever their
// length.
const cacheMinDirSize = 16 << 10

// settleTime is how long before a listing the directory's last change must be for the listing
// to be stored: longer than the tick of any file system's timestamps (two seconds on FAT).
var settleTime = 3 * time.Second

// cacheMaxAge is how long a cache file lives without being written. A listing is stored again
// after each settled change of its directory, so a file this old is a directory's that is gone
// (a clone deleted, a checkout made afresh) or one unchanged for a month, which a single listing
// brings back.
const cacheMaxAge = 30 * 24 * time.Hour

// maxCacheFile bounds a cache file read back: a directory of 16,000 names of 255 bytes.
const maxCacheFile = 4 << 20

// cacheMagic starts every cache file; another version's files are ignored and replaced.
const cacheMagic = "gsd listing 2\n"

// A cache file is cacheMagic, then the directory's own listing, then each subdirectory's, by
// name in increasing byte order:
//
//	<dev> <ino> <size> <ctime s> <ctime ns> <mtime s> <mtime ns> <count>\n<name>\0...
//	<subdirectory>\0<dev> <ino> <size> <ctime s> <ctime ns> <mtime s> <mtime ns> <count>\n<name>\0...
//
// The directory's own line is "-" when its listing was not settled when stored.

// listing is a directory's names as they were when its stat gave key (statKey).
type listing struct {
	key   string
	names []string
	raw   string // read from a cache file and not split yet: the names, each ending in a NUL
	count int    // how many names raw holds
}

// list returns l's names.
func (l *listing) list() []string {
	if l.names == nil && l.count > 0 {
		l.names = make([]string, 0, l.count)
		for raw := l.raw; raw != ""; {
			i := strings.IndexByte(raw, 0)
			l.names = append(l.names, raw[:i])
			raw = raw[i+1:]
		}
	}
	return l.names
}

// cachedDir is a directory listed through the cache (ReadCachedDirNames), kept open so that
// its subdirectories are stat'ed and listed relative to it, with the listings its cache file
// holds and those learnt since.
type cachedDir struct {
	fd    int
	dev   uint64   // the directory's device: a subdirectory on another (a mount) is not cached
	large bool     // its own listing is worth a cache file by itself (cacheMinDirSize)
	file  string   // its cache file
	names []string // its listing in this run
	own   *listing // its listing to store: nil when not settled
	kids  map[string]*listing
	dirty bool // the cache file lacks a settled listing learnt in this run
}

// readCachedDirNames is ReadCachedDirNames on the openat2 FS.
func (b *beneath) readCachedDirNames(name string) ([]string, error) {
	if b.cacheDir == "" {
		return b.readDirNames(name)
	}
	b.mu.Lock()
	old := b.cached[name]
	delete(b.cached, name)
	b.mu.Unlock()
	if old != nil {
		b.storeCached(old) // listed again: what the first listing learnt is read back below
	}
	fd, err := b.openDir(name, ErrNotDir)
	if err != nil {
		return nil, err
	}
	var st unix.Stat_t
	err = fstat(fd, &st)
	b.rec.add(name, false, &st, err)
	if err != nil || !localFS(fd) {
		defer unix.Close(fd)
		return listNames(fd, name)
	}
	d := &cachedDir{fd: fd, dev: uint64(st.Dev), large: st.Size >= cacheMinDirSize, file: filepath.Join(b.cacheDir, cacheName(&st))}
	d.own, d.kids = loadListings(d.file)
	if d.own != nil && sameKey(d.own.key, &st) {
		d.names = d.own.list()
	} else {
		l, err := listSettled(fd, name, &st)
		if err != nil {
			unix.Close(fd)
			return nil, err
		}
		d.names, d.own = l.names, nil
		if l.key != "" {
			d.own, d.dirty = l, true
		}
	}
	if d.kids == nil {
		d.kids = map[string]*listing{}
	}
	b.mu.Lock()
	if b.cached == nil {
		b.cached = map[string]*cachedDir{}
	}
	b.cached[name] = d
	b.mu.Unlock()
	return d.names, nil
}

// cachedSubdir returns the names of directory name when its parent was listed through the
// cache: from the cache while name is unchanged, else listed (and learnt). ok is false when
// name is not such a subdirectory, or not a plain directory on its parent's device (missing, a
// file, a symlink, a mount): it is then listed as any directory is.
func (b *beneath) cachedSubdir(name string) (names []string, ok bool) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 || !fs.ValidPath(name) {
		return nil, false // "a/..", say, is not a subdirectory of a
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.cached[name[:i]]
	if d == nil {
		return nil, false
	}
	base := name[i+1:]
	var st unix.Stat_t
	if fstatat(d.fd, base, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || uint64(st.Dev) != d.dev {
		return nil, false
	}
	b.rec.add(name, true, &st, nil)
	if k := d.kids[base]; k != nil && sameKey(k.key, &st) {
		return k.list(), true
	}
	// One name, not a symlink, beneath a directory opened beneath the root: it cannot leave it.
	fd, err := openat(d.fd, base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	l, err := listSettled(fd, name, &st)
	if err != nil {
		return nil, false // listed again as any directory is, which says what is wrong
	}
	if l.key != "" {
		d.kids[base], d.dirty = l, true
	}
	return l.names, true
}

// listSettled lists the directory open at fd, which st (taken before) describes. The listing's
// key is st's when it may be stored: the directory was the same after the listing and its last
// change had settled before it began; "" otherwise.
func listSettled(fd int, name string, st *unix.Stat_t) (*listing, error) {
	// The listing begins now: a change after st was taken, before or during the listing, moves
	// the ctime, which the fstat after it then shows.
	begun := time.Now()
	names, err := listNames(fd, name)
	if err != nil {
		return nil, err
	}
	l := &listing{names: names}
	var after unix.Stat_t
	if fstat(fd, &after) == nil && sameDir(st, &after) && settled(st, begun) {
		l.key = statKey(st)
	}
	return l, nil
}

// closeCached stores what the directories listed through the cache learnt, and closes them.
func (b *beneath) closeCached() {
	b.mu.Lock()
	dirs := b.cached
	b.cached = nil
	b.mu.Unlock()
	for _, d := range dirs {
		b.storeCached(d)
	}
}

// storeCached writes d's cache file when d learnt a listing worth one (a subdirectory's, or its
// own when it is large), then closes d. Only the subdirectories still in its listing are kept.
func (b *beneath) storeCached(d *cachedDir) {
	defer unix.Close(d.fd)
	if !d.dirty {
		return
	}
	listed := make(map[string]bool, len(d.names))
	for _, n := range d.names {
		listed[n] = true
	}
	maps.DeleteFunc(d.kids, func(k string, _ *listing) bool { return !listed[k] })
	if len(d.kids) == 0 && (d.own == nil || !d.large) {
		return
	}
	storeListings(b.cacheDir, d.file, d.own, d.kids) // a cache that cannot be written is only slower
}

// cacheName is the name of the cache file of the directory st describes: "<dev>-<ino>".
func cacheName(st *unix.Stat_t) string {
	return strconv.FormatUint(uint64(st.Dev), 10) + "-" + strconv.FormatUint(uint64(st.Ino), 10)
}

// fstatat is unix.Fstatat, retried on EINTR.
func fstatat(dirfd int, name string, st *unix.Stat_t, flags int) error {
	for {
		if err := unix.Fstatat(dirfd, name, st, flags); err != unix.EINTR {
			return err
		}
	}
}

// openat is unix.Openat, retried on EINTR.
func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// localFS reports whether the directory open at fd is on a local file system the cache
// trusts: one that stamps a directory's ctime from this machine's clock on every change to its
// entries. A network or FUSE file system may cache attributes, or stamp them with another
// machine's clock; its directories are always listed.
func localFS(fd int) bool {
	var sfs unix.Statfs_t
	for {
		err := unix.Fstatfs(fd, &sfs)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false
		}
		break
	}
	return trustedFS(uint32(sfs.Type)) // a 32-bit magic number, whatever the field's type here
}

// zfsSuperMagic is OpenZFS's f_type, which package unix does not name.
const zfsSuperMagic = 0x2fc12fc1

// trustedFS reports whether the file system of type fsType (statfs's f_type) is one localFS
// trusts.
func trustedFS(fsType uint32) bool {
	switch fsType {
	case unix.EXT4_SUPER_MAGIC, // ext2, ext3 and ext4
		unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC,
		zfsSuperMagic, unix.TMPFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC:
		return true
	}
	return false
}

// settled reports whether the directory's last change came settleTime or more before begun.
func settled(st *unix.Stat_t, begun time.Time) bool {
	return time.Unix(st.Ctim.Unix()).Before(begun.Add(-settleTime))
}

// sameDir reports whether two fstats of a directory show it unchanged.
func sameDir(a, b *unix.Stat_t) bool {
	return a.Dev == b.Dev && a.Ino == b.Ino && a.Size == b.Size && a.Ctim == b.Ctim && a.Mtim == b.Mtim
}

// statKey is what identifies a directory and its state in a listing's line: its device, inode,
// size, ctime and mtime.
func statKey(st *unix.Stat_t) string { return string(appendStatKey(make([]byte, 0, 96), st)) }

// sameKey reports whether st gives key, without building a string: it is asked for every
// subdirectory of every run.
func sameKey(key string, st *unix.Stat_t) bool {
	var buf [96]byte
	return string(appendStatKey(buf[:0], st)) == key
}

func appendStatKey(b []byte, st *unix.Stat_t) []byte {
	// int64 of each field: their types differ between architectures.
	return appendNumbers(b, int64(st.Dev), int64(st.Ino), int64(st.Size), int64(st.Ctim.Sec), int64(st.Ctim.Nsec), int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
}

// appendNumbers appends vs in decimal (as unsigned), separated by spaces.
func appendNumbers(b []byte, vs ...int64) []byte {
	for i, v := range vs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	return b
}

// loadListings returns the listings file holds: the directory's own (nil when it has none)
// and its subdirectories', by name; nil for a file that is missing, torn or not one of this
// version's. The names are slices of the file's bytes, which nothing writes again.
func loadListings(file string) (*listing, map[string]*listing) {
	fd, err := unix.Open(file, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil
	}
	b, err := ReadFD(fd, file, maxCacheFile)
	unix.Close(fd)
	if err != nil {
		return nil, nil
	}
	own, kids, ok := parseListings(b)
	if !ok {
		return nil, nil
	}
	return own, kids
}

// parseListings parses a cache file (see cacheMagic); ok is false for one that is torn, or
// that encodes its listings in any other way than storeListings would.
func parseListings(b []byte) (own *listing, kids map[string]*listing, ok bool) {
	body, ok := bytes.CutPrefix(b, []byte(cacheMagic))
	if !ok {
		return nil, nil, false
	}
	if rest, ok := bytes.CutPrefix(body, []byte("-\n")); ok {
		body = rest
	} else if own, body, ok = parseListing(body); !ok {
		return nil, nil, false
	}
	kids = map[string]*listing{}
	last := ""
	for len(body) > 0 {
		i := bytes.IndexByte(body, 0)
		if i <= 0 || bytes.IndexByte(body[:i], '/') >= 0 {
			return nil, nil, false
		}
		name := unsafe.String(&body[0], i)
		if name <= last {
			return nil, nil, false // in increasing order, each once
		}
		var l *listing
		if l, body, ok = parseListing(body[i+1:]); !ok {
			return nil, nil, false
		}
		kids[name], last = l, name
	}
	return own, kids, true
}

// parseListing parses one listing's line and names from the start of b, and returns the rest.
// The names are split when they are first asked for (listing.list).
func parseListing(b []byte) (*listing, []byte, bool) {
	line, body, ok := bytes.Cut(b, []byte{'\n'})
	if !ok || !canonicalNumbers(line, 8) {
		return nil, nil, false
	}
	sp := bytes.LastIndexByte(line, ' ')
	count, err := strconv.ParseUint(string(line[sp+1:]), 10, 64)
	if err != nil || count > uint64(len(body)) {
		return nil, nil, false
	}
	rest := body
	for range count {
		i := bytes.IndexByte(rest, 0)
		if i <= 0 {
			return nil, nil, false // a name is never empty, and every one ends in a NUL
		}
		rest = rest[i+1:]
	}
	l := &listing{key: unsafe.String(&line[0], sp), count: int(count)}
	if n := len(body) - len(rest); n > 0 {
		l.raw = unsafe.String(&body[0], n)
	}
	return l, rest, true
}

// canonicalNumbers reports whether line is n unsigned 64-bit numbers as appendNumbers writes
// them: decimal digits, no leading zero, one space between.
func canonicalNumbers(line []byte, n int) bool {
	for f := range bytes.SplitSeq(line, []byte{' '}) {
		n--
		switch {
		case len(f) == 0 || len(f) > 20 || len(f) > 1 && f[0] == '0':
			return false
		case len(f) == 20 && string(f) > "18446744073709551615":
			return false
		}
		for _, c := range f {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return n == 0
}

// appendListings appends the cache file of a directory's own listing (nil for none) and its
// subdirectories'.
func appendListings(b []byte, own *listing, kids map[string]*listing) []byte {
	b = append(b, cacheMagic...)
	if own == nil {
		b = append(b, "-\n"...)
	} else {
		b = appendListing(b, own)
	}
	for _, k := range slices.Sorted(maps.Keys(kids)) {
		b = append(append(b, k...), 0)
		b = appendListing(b, kids[k])
	}
	return b
}

func appendListing(b []byte, l *listing) []byte {
	names := l.list()
	b = append(appendNumbers(append(append(b, l.key...), ' '), int64(len(names))), '\n')
	for _, n := range names {
		b = append(append(b, n...), 0)
	}
	return b
}

// storeListings writes the listings into file, through a new file renamed over it: a reader
// sees the old listings or the new ones, never a part. Then it prunes the cache directory.
func storeListings(dir, file string, own *listing, kids map[string]*listing) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	b := appendListings(nil, own, kids)
	f, err := os.CreateTemp(dir, filepath.Base(file)+".*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), file) != nil {
		os.Remove(f.Name())
		return
	}
	pruneListings(dir, time.Now())
}

// pruneListings removes the files of the cache directory dir not written for cacheMaxAge: the
// listings of directories that are gone, and the temporary files of writes a crash cut short. It
// runs after a store, which is rare (once per settled change of a phase directory), so that the
// cache stays the size of what is in use without a listing of it on every run. Only the cache's
// own names ("<dev>-<ino>", and that followed by a temporary file's suffix) are removed.
func pruneListings(dir string, now time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !isCacheName(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > cacheMaxAge {
			os.Remove(filepath.Join(dir, e.Name())) // another gsd may have done it already
		}
	}
}

// isCacheName reports whether name is one storeListings writes: "<dev>-<ino>", or that and a
// dot and a temporary file's suffix.
func isCacheName(name string) bool {
	name, _, _ = strings.Cut(name, ".")
	dev, ino, ok := strings.Cut(name, "-")
	_, derr := strconv.ParseUint(dev, 10, 64)
	_, ierr := strconv.ParseUint(ino, 10, 64)
	return ok && derr == nil && ierr == nil
}
