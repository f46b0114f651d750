package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// shortSettle makes the listing cache store a directory 50 ms after its last change rather than
// 3 s, so that the tests wait (twice that, on the real clock) instead of faking time: a faked
// clock would hide the race the settling guards against.
func shortSettle(t *testing.T) {
	old := settleTime
	settleTime = 50 * time.Millisecond
	t.Cleanup(func() { settleTime = old })
}

func settle() { time.Sleep(2 * settleTime) }

// bigDir makes root/name large enough for the listing cache on this file system.
func bigDir(t *testing.T, root, name string) {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	growDir(t, dir, func(i int) error {
		return os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d-a-phase-directory-named-at-length", i)), nil, 0o644)
	})
}

// growDir adds entries to dir (entry i made by add) until it is large enough for the listing
// cache, and returns how many it added; it fails the test when 20,000 do not make it so.
func growDir(t *testing.T, dir string, add func(i int) error) int {
	t.Helper()
	for i := 0; ; i++ {
		fi, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() >= cacheMinDirSize {
			return i
		}
		if i == 20000 {
			t.Fatalf("%s: still %d bytes after %d entries", dir, fi.Size(), i)
		}
		if err := add(i); err != nil {
			t.Fatal(err)
		}
	}
}

// osNames is the listing as package os gives it, sorted; none for a directory that is not there.
func osNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// cacheFiles lists the files of the cache directory, by path.
func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	for _, n := range osNames(t, dir) {
		paths = append(paths, filepath.Join(dir, n))
	}
	return paths
}

// onTrustedFS skips a test of the cache where the test's directories are on a file system the
// cache is not for (a network or FUSE one): there every directory is listed.
func onTrustedFS(t *testing.T, dir string) {
	t.Helper()
	var sfs unix.Statfs_t
	if err := unix.Statfs(dir, &sfs); err != nil {
		t.Fatal(err)
	}
	if !trustedFS(uint32(sfs.Type)) {
		t.Skipf("%s is on a file system of type %#x, which the listing cache does not trust", dir, sfs.Type)
	}
}

func TestTrustedFS(t *testing.T) {
	for fsType, want := range map[uint32]bool{
		unix.EXT4_SUPER_MAGIC: true, unix.XFS_SUPER_MAGIC: true, unix.BTRFS_SUPER_MAGIC: true,
		unix.TMPFS_MAGIC: true, unix.OVERLAYFS_SUPER_MAGIC: true, zfsSuperMagic: true,
		unix.NFS_SUPER_MAGIC: false, unix.FUSE_SUPER_MAGIC: false, unix.SMB2_SUPER_MAGIC: false,
		unix.CIFS_SUPER_MAGIC: false, unix.V9FS_MAGIC: false, 0: false,
	} {
		if got := trustedFS(fsType); got != want {
			t.Errorf("trustedFS(%#x) = %v, want %v", fsType, got, want)
		}
	}
}

func TestListingCache(t *testing.T) {
	shortSettle(t)
	root, cache := t.TempDir(), t.TempDir()
	onTrustedFS(t, root)
	bigDir(t, root, "phases")
	fsys := openCachingT(t, root, cache)
	dir := filepath.Join(root, "phases")
	check := func(when string) {
		t.Helper()
		got, err := ReadBigDirNames(fsys, "phases")
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		slices.Sort(got)
		if want := osNames(t, dir); !slices.Equal(got, want) {
			t.Fatalf("%s: %d names, want %d (first difference near %q)", when, len(got), len(want), firstDiff(got, want))
		}
	}

	// Listed within the settling time of its last change: listed, not stored. (An hour here, so
	// that a stalled test machine cannot make the directory settled.)
	short := settleTime
	settleTime = time.Hour
	check("unsettled")
	if files := cacheFiles(t, cache); len(files) != 0 {
		t.Fatalf("stored the listing of a directory changed less than %v ago: %v", settleTime, files)
	}
	settleTime = short
	settle()
	check("settled")
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files after a settled listing: %v", files)
	}

	// A listing read back is the cache's: a name planted in it is what the FS lists.
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	first := osNames(t, dir)[0]
	planted := bytes.Replace(b, []byte(first+"\x00"), []byte("planted\x00"), 1)
	if bytes.Equal(planted, b) {
		t.Fatalf("%s does not hold %q", files[0], first)
	}
	if err := os.WriteFile(files[0], planted, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadBigDirNames(fsys, "phases")
	if err != nil || !slices.Contains(got, "planted") {
		t.Fatalf("the listing did not come from the cache (err %v)", err)
	}

	// Any change to the directory's entries, at once, is seen (and the planted name is gone).
	if err := os.WriteFile(filepath.Join(dir, "new"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	check("after a create")
	if err := os.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "wen")); err != nil {
		t.Fatal(err)
	}
	check("after a rename")
	if err := os.Remove(filepath.Join(dir, "wen")); err != nil {
		t.Fatal(err)
	}
	check("after a remove")
	if err := os.Mkdir(filepath.Join(dir, "0001-phase-x"), 0o755); err != nil {
		t.Fatal(err)
	}
	check("after a mkdir")
	// Setting the times back does not hide a change: the ctime moves with it.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
	settle()
	check("after chtimes, settled")
	// The listing with 0001-phase-x is the one cached: its removal is what must not hide.
	if b, err := os.ReadFile(files[0]); err != nil || !bytes.Contains(b, []byte("0001-phase-x\x00")) {
		t.Fatalf("the cache does not hold the listing with 0001-phase-x (err %v)", err)
	}
	if err := os.Remove(filepath.Join(dir, "0001-phase-x")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(dir, old, old); err != nil {
		t.Fatal(err)
	}
	check("after a remove hidden by chtimes")

	// A torn cache file is listed afresh, then replaced.
	settle()
	check("settled again")
	b, err = os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, torn := range [][]byte{b[:len(b)/2], b[:len(b)-1], nil, []byte("gsd listing 1\n"), append(slices.Clone(b), "extra\x00"...)} {
		if err := os.WriteFile(files[0], torn, 0o600); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("a cache file of %d bytes", len(torn)))
		if back, err := os.ReadFile(files[0]); err != nil || !bytes.Equal(back, b) {
			t.Fatalf("a torn cache file was not replaced (err %v)", err)
		}
	}
	if files := cacheFiles(t, cache); len(files) != 1 {
		t.Fatalf("cache files: %v (a temporary file left behind?)", files)
	}
}

// A small directory is listed and never stored; a cache directory that cannot be written only
// makes listings slower; errors are ReadDirNames'.
func TestListingCacheBounds(t *testing.T) {
	shortSettle(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "small/01-a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	onTrustedFS(t, root)
	bigDir(t, root, "big")
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	settle()
	for _, cache := range []string{t.TempDir(), notADir} {
		fsys := openCachingT(t, root, cache)
		for _, dir := range []string{"small", "big"} {
			got, err := ReadBigDirNames(fsys, dir)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			if want := osNames(t, filepath.Join(root, dir)); !slices.Equal(got, want) {
				t.Errorf("cache %s: %s: %d names, want %d", cache, dir, len(got), len(want))
			}
		}
		if _, err := ReadBigDirNames(fsys, "file"); !errors.Is(err, ErrNotDir) {
			t.Errorf("ReadBigDirNames(a file): %v", err)
		}
		if _, err := ReadBigDirNames(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadBigDirNames(missing): %v", err)
		}
		if cache != notADir {
			if files := cacheFiles(t, cache); len(files) != 1 {
				t.Errorf("cache files for one large and one small directory: %v", files)
			}
		}
	}
}

// A store removes the cache files not written for cacheMaxAge (listings of directories gone,
// temporary files a crash left), and nothing else.
func TestListingCachePrune(t *testing.T) {
	shortSettle(t)
	root, cache := t.TempDir(), t.TempDir()
	onTrustedFS(t, root)
	bigDir(t, root, "phases")
	long := time.Now().Add(-cacheMaxAge - time.Hour)
	recent := time.Now().Add(-cacheMaxAge + time.Hour)
	for name, when := range map[string]time.Time{
		"1-2": long, "3-4.123456": long, "5-6": recent, "notes": long, "7-x": long, "-8": long,
	} {
		f := filepath.Join(cache, name)
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, when, when); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(cache, "9-10"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(cache, "9-10"), long, long); err != nil {
		t.Fatal(err)
	}
	settle()
	if _, err := ReadBigDirNames(openCachingT(t, root, cache), "phases"); err != nil {
		t.Fatal(err)
	}
	kept := osNames(t, cache)
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(root, "phases"), &st); err != nil {
		t.Fatal(err)
	}
	stored := fmt.Sprintf("%d-%d", st.Dev, st.Ino)
	want := []string{"-8", "5-6", "7-x", "9-10", "notes", stored}
	slices.Sort(want)
	if !slices.Equal(kept, want) {
		t.Errorf("cache directory after a store: %q, want %q", kept, want)
	}
}

func TestIsCacheName(t *testing.T) {
	for name, want := range map[string]bool{
		"2049-131": true, "2049-131.4071": true, "1-2.": true,
		"2049": false, "-131": false, "2049-": false, "a-1": false, "1-a": false, ".1-2": false, "": false,
	} {
		if got := isCacheName(name); got != want {
			t.Errorf("isCacheName(%q) = %v, want %v", name, got, want)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i]
		}
	}
	return ""
}

// A cache file of any bytes is a listing that matches or none: never a panic, an empty name or
// one with a NUL, or a count other than the header's.
func FuzzLoadListing(f *testing.F) {
	st := unix.Stat_t{Dev: 65024, Ino: 77, Size: 36864, Ctim: unix.Timespec{Sec: 1795393244, Nsec: 5}, Mtim: unix.Timespec{Sec: 1795393244, Nsec: 5}}
	good := append(appendHeader([]byte(cacheMagic), &st, 2), "\n01-a\x0002-b\x00"...)
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add(append(appendHeader([]byte(cacheMagic), &st, 0), '\n'))
	f.Add([]byte(cacheMagic + "65024 77 36864 1795393244 5 1795393244 5 99999999999999999999\n"))
	f.Add([]byte(cacheMagic + "65024 77 36864 1795393244 5 1795393244 5 -1\n"))
	file := filepath.Join(f.TempDir(), "listing")
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
		names, ok := loadListing(file, &st)
		if !ok {
			return
		}
		want := append(appendHeader([]byte(cacheMagic), &st, len(names)), '\n')
		for _, n := range names {
			if n == "" || strings.IndexByte(n, 0) >= 0 {
				t.Fatalf("name %q", n)
			}
			want = append(append(want, n...), 0)
		}
		if !bytes.Equal(want, b) {
			t.Fatalf("loaded %q from %q", names, b)
		}
	})
}
