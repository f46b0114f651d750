package rootfs

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The listing cache keeps the names of a large directory (a project's phases/ after some
// hundreds of phases) in a file of the user's cache directory, with the directory's device,
// inode, size, ctime and mtime. Listing such a directory is most of what a project's size adds
// to an agent turn: ext4 hashes every name and sorts them on each listing. While the directory
// has the device, inode, size and times the cache records, it holds the names the cache holds:
// creating, removing or renaming an entry sets the directory's ctime to the current time, which
// nothing in user space can set back. Git's untracked cache rests on the same evidence.
//
// A listing is stored only when the directory's last change had settled before the listing
// began (settleTime): a change during the listing, or after it within the same tick of a
// coarse file-system clock, still gives a ctime other than the one recorded. A cache file is
// written without fsync, so a crash can leave it torn; it then fails its checks and the
// directory is listed afresh.

// cacheMinDirSize is the smallest directory, by st_size, the cache is for: on ext4 some 170 to
// 360 entries, for names of 30 to 12 characters; on tmpfs 818, whatever their length. A smaller
// one is always listed: its listing is cheap, and no cache file is written for it.
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
const cacheMagic = "gsd listing 1\n"

// readBigDirNames is readDirNames for a directory that may hold hundreds of entries: from the
// cache while the directory is unchanged, else listed (and cached, when it is large).
func (b *beneath) readBigDirNames(name string) ([]string, error) {
	if b.cacheDir == "" {
		return b.readDirNames(name)
	}
	fd, err := b.openDir(name, ErrNotDir)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if fstat(fd, &st) != nil || st.Size < cacheMinDirSize || !localFS(fd) {
		return listNames(fd, name)
	}
	file := filepath.Join(b.cacheDir, strconv.FormatUint(uint64(st.Dev), 10)+"-"+strconv.FormatUint(uint64(st.Ino), 10))
	if names, ok := loadListing(file, &st); ok {
		return names, nil
	}
	// The listing begins now: a change after the fstat above, before or during it, moves the
	// ctime, which the fstat after it then shows.
	begun := time.Now()
	names, err := listNames(fd, name)
	if err != nil {
		return nil, err
	}
	var after unix.Stat_t
	if fstat(fd, &after) == nil && sameDir(&st, &after) && settled(&st, begun) {
		storeListing(b.cacheDir, file, &st, names) // a cache that cannot be written is only slower
	}
	return names, nil
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

// appendHeader appends the line after cacheMagic, without its newline: what identifies the
// directory and its state, and how many names follow.
func appendHeader(h []byte, st *unix.Stat_t, count int) []byte {
	// int64 of each field: their types differ between architectures.
	for i, v := range []int64{int64(st.Dev), int64(st.Ino), int64(st.Size), int64(st.Ctim.Sec), int64(st.Ctim.Nsec), int64(st.Mtim.Sec), int64(st.Mtim.Nsec), int64(count)} {
		if i > 0 {
			h = append(h, ' ')
		}
		h = strconv.AppendUint(h, uint64(v), 10)
	}
	return h
}

// loadListing returns the names file holds when it records the directory st describes, as st
// describes it. The names are slices of the file's bytes, which nothing writes again.
func loadListing(file string, st *unix.Stat_t) ([]string, bool) {
	fd, err := unix.Open(file, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	b, err := ReadFD(fd, file, maxCacheFile)
	unix.Close(fd)
	if err != nil {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(b, []byte(cacheMagic))
	if !ok {
		return nil, false
	}
	line, body, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, false
	}
	count, err := strconv.Atoi(string(line[bytes.LastIndexByte(line, ' ')+1:]))
	if err != nil || count < 0 || count > len(body) {
		return nil, false
	}
	if !bytes.Equal(appendHeader(make([]byte, 0, 128), st, count), line) {
		return nil, false
	}
	names := make([]string, 0, count)
	for len(body) > 0 {
		i := bytes.IndexByte(body, 0)
		if i <= 0 {
			return nil, false // a name is never empty, and every one ends in a NUL
		}
		names = append(names, unsafe.String(&body[0], i))
		body = body[i+1:]
	}
	if len(names) != count {
		return nil, false
	}
	return names, true
}

// storeListing writes names into file, through a new file renamed over it: a reader sees the
// old listing or the new one, never a part. Then it prunes the cache directory.
func storeListing(dir, file string, st *unix.Stat_t, names []string) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	size := len(cacheMagic) + 128
	for _, n := range names {
		size += len(n) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, cacheMagic...)
	b = append(appendHeader(b, st, len(names)), '\n')
	for _, n := range names {
		b = append(append(b, n...), 0)
	}
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
// runs after a store, which is rare (once per settled change of a large directory), so that the
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

// isCacheName reports whether name is one storeListing writes: "<dev>-<ino>", or that and a
// dot and a temporary file's suffix.
func isCacheName(name string) bool {
	name, _, _ = strings.Cut(name, ".")
	dev, ino, ok := strings.Cut(name, "-")
	_, derr := strconv.ParseUint(dev, 10, 64)
	_, ierr := strconv.ParseUint(ino, 10, 64)
	return ok && derr == nil && ierr == nil
}
