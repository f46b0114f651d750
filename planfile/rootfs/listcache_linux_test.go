package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
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

// osNames is the listing as package os gives it, sorted; none for a directory that is not there
// or not a directory.
func osNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ENOTDIR) {
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

// settledOnly runs check within the settling time of the last change (an hour here, so that a
// stalled test machine cannot make it settled) and asserts that nothing was stored; then after
// settling.
func settledOnly(t *testing.T, cache string, check func(when string)) {
	t.Helper()
	short := settleTime
	settleTime = time.Hour
	check("unsettled")
	if files := cacheFiles(t, cache); len(files) != 0 {
		t.Fatalf("stored listings changed less than %v ago: %v", settleTime, files)
	}
	settleTime = short
	settle()
	check("settled")
}

// run lists dir through the cache of a newly opened FS, then each of dir's subdirectories
// named in subs, and closes the FS (storing what it learnt), as one gsd process does. It
// returns what each listing gave, by name ("" for dir itself); an error is a missing entry.
func run(t *testing.T, root, cache, dir string, subs ...string) map[string][]string {
	t.Helper()
	fsys := openCachingT(t, root, cache)
	got := map[string][]string{}
	names, err := ReadCachedDirNames(fsys, dir)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	got[""] = names
	for _, sub := range subs {
		names, err := ReadDirNames(fsys, dir+"/"+sub)
		if err == nil {
			got[sub] = names
		}
	}
	if err := fsys.Close(); err != nil {
		t.Fatal(err)
	}
	return got
}

// sorted returns names sorted, for comparing listings.
func sorted(names []string) []string {
	names = slices.Clone(names)
	slices.Sort(names)
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
	dir := filepath.Join(root, "phases")
	check := func(when string) {
		t.Helper()
		got := sorted(run(t, root, cache, "phases")[""])
		if want := osNames(t, dir); !slices.Equal(got, want) {
			t.Fatalf("%s: %d names, want %d (first difference near %q)", when, len(got), len(want), firstDiff(got, want))
		}
	}

	settledOnly(t, cache, check)
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
	if got := run(t, root, cache, "phases")[""]; !slices.Contains(got, "planted") {
		t.Fatal("the listing did not come from the cache")
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
	for _, torn := range [][]byte{b[:len(b)/2], b[:len(b)-1], nil, []byte(cacheMagic), []byte("gsd listing 1\n" + string(b[len(cacheMagic):])), append(slices.Clone(b), "extra\x00"...)} {
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

// The subdirectories of a directory listed through the cache are listed through it too: each
// from the cache while it is unchanged, and listed afresh, at once, after any change.
func TestListingCacheSubdirs(t *testing.T) {
	shortSettle(t)
	root, cache := t.TempDir(), t.TempDir()
	onTrustedFS(t, root)
	phases := filepath.Join(root, "phases")
	for _, f := range []string{"01-a/01-01-PLAN.md", "01-a/01-01-SUMMARY.md", "02-b/02-01-PLAN.md", "notes.md"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(phases, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(phases, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("01-a", filepath.Join(phases, "03-link")); err != nil {
		t.Fatal(err)
	}
	subs := []string{"01-a", "02-b", "03-link", "notes.md", "missing"}
	check := func(when string) map[string][]string {
		t.Helper()
		got := run(t, root, cache, "phases", subs...)
		for _, sub := range append([]string{""}, subs...) {
			if want := osNames(t, filepath.Join(phases, sub)); !slices.Equal(sorted(got[sub]), want) {
				t.Fatalf("%s: %q lists %q, want %q", when, sub, sorted(got[sub]), want)
			}
		}
		return got
	}
	// kidsStored checks that the cache file holds the listings of exactly the subdirectories
	// named, each as the directory is now; it returns the file.
	kidsStored := func(when string, want ...string) string {
		t.Helper()
		b := storedFile(t, cache)
		kids := storedListings(t, b)
		if got := slices.Sorted(maps.Keys(kids)); !slices.Equal(got, want) {
			t.Fatalf("%s: the cache holds the listings of %q, want %q", when, got, want)
		}
		for k, names := range kids {
			if w := osNames(t, filepath.Join(phases, k)); !slices.Equal(names, w) {
				t.Fatalf("%s: the cache lists %s as %q, want %q", when, k, names, w)
			}
		}
		return b
	}

	settledOnly(t, cache, func(when string) { check(when) })
	b := kidsStored("settled", "01-a", "02-b") // not the symlink, the file or the missing name

	// A name planted in 01-a's cached listing is what 01-a lists: it comes from the cache. A
	// subdirectory listed without its parent through the cache is listed.
	planted := strings.Replace(b, "01-01-SUMMARY.md\x00", "01-09-PLANTED.md\x00", 1)
	if err := os.WriteFile(cacheFiles(t, cache)[0], []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := run(t, root, cache, "phases", "01-a")["01-a"]; !slices.Contains(got, "01-09-PLANTED.md") {
		t.Fatalf("01-a lists %q: not from the cache", got)
	}
	fsys := openCachingT(t, root, cache)
	if got, err := ReadDirNames(fsys, "phases/01-a"); err != nil || slices.Contains(got, "01-09-PLANTED.md") {
		t.Fatalf("01-a alone lists %q, %v: from the cache", got, err)
	}
	if _, err := ReadCachedDirNames(fsys, "phases"); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDirNames(fsys, "phases/.."); err == nil {
		t.Fatal(`"phases/.." listed`)
	}
	fsys.Close()
	if err := os.WriteFile(cacheFiles(t, cache)[0], []byte(b), 0o600); err != nil {
		t.Fatal(err)
	}

	// Each change is seen at once: a file added to 02-b, one removed from 01-a (with its times
	// set back), a new phase directory; then 02-b removed, which leaves the cache when it is
	// stored again.
	if err := os.WriteFile(filepath.Join(phases, "02-b", "02-01-SUMMARY.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	check("after a create")
	if err := os.Remove(filepath.Join(phases, "01-a", "01-01-SUMMARY.md")); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(phases, "01-a"), old, old); err != nil {
		t.Fatal(err)
	}
	check("after a remove hidden by chtimes")
	if err := os.Mkdir(filepath.Join(phases, "04-d"), 0o755); err != nil {
		t.Fatal(err)
	}
	subs = append(subs, "04-d")
	check("after a mkdir")
	settle()
	check("settled again")
	kidsStored("settled after the changes", "01-a", "02-b", "04-d")
	if err := os.RemoveAll(filepath.Join(phases, "02-b")); err != nil {
		t.Fatal(err)
	}
	if got := check("after a rmdir"); got["02-b"] != nil {
		t.Fatalf("02-b, removed, lists %q", got["02-b"])
	}
	settle()
	check("settled after the rmdir")
	kidsStored("settled after the rmdir", "01-a", "04-d")
}

// A directory listed twice in one run (hydrate --sync-state locates, then loads) keeps the
// subdirectories' listings learnt after each.
func TestListingCacheListedTwice(t *testing.T) {
	shortSettle(t)
	root, cache := t.TempDir(), t.TempDir()
	onTrustedFS(t, root)
	for _, d := range []string{"phases/01-a", "phases/02-b"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settle()
	fsys := openCachingT(t, root, cache)
	for _, sub := range []string{"01-a", "02-b"} {
		if _, err := ReadCachedDirNames(fsys, "phases"); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadDirNames(fsys, "phases/"+sub); err != nil {
			t.Fatal(err)
		}
	}
	if err := fsys.Close(); err != nil {
		t.Fatal(err)
	}
	kids := storedListings(t, storedFile(t, cache))
	if got := slices.Sorted(maps.Keys(kids)); !slices.Equal(got, []string{"01-a", "02-b"}) {
		t.Fatalf("the cache holds the listings of %q, want both", got)
	}
}

// storedFile returns the content of the one file of the cache directory.
func storedFile(t *testing.T, cache string) string {
	t.Helper()
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files: %v, want one", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// storedListings parses a cache file: its subdirectories' listings, each sorted.
func storedListings(t *testing.T, b string) map[string][]string {
	t.Helper()
	_, kids, ok := parseListings([]byte(b))
	if !ok {
		t.Fatalf("a cache file that does not parse:\n%q", b)
	}
	out := map[string][]string{}
	for k, l := range kids {
		out[k] = sorted(l.list())
	}
	return out
}

// A small directory whose subdirectories are not listed is never stored; a cache directory that cannot be written only
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
		for _, dir := range []string{"small", "big"} {
			got := sorted(run(t, root, cache, dir)[""])
			if want := osNames(t, filepath.Join(root, dir)); !slices.Equal(got, want) {
				t.Errorf("cache %s: %s: %d names, want %d", cache, dir, len(got), len(want))
			}
		}
		fsys := openCachingT(t, root, cache)
		if _, err := ReadCachedDirNames(fsys, "file"); !errors.Is(err, ErrNotDir) {
			t.Errorf("ReadCachedDirNames(a file): %v", err)
		}
		if _, err := ReadCachedDirNames(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadCachedDirNames(missing): %v", err)
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
	run(t, root, cache, "phases")
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

// A cache file of any bytes is listings or none: never a panic, an empty name or one with a
// NUL, and only what storeListings would write for them.
func FuzzParseListings(f *testing.F) {
	key := "65024 77 36864 1795393244 5 1795393244 5"
	good := cacheMagic + key + " 2\n01-a\x0002-b\x00" + "01-a\x00" + key + " 1\n01-01-PLAN.md\x00" + "02-b\x00" + key + " 0\n"
	f.Add([]byte(good))
	f.Add([]byte(good[:len(good)-1]))
	f.Add([]byte(cacheMagic + "-\n" + "01-a\x00" + key + " 1\nx\x00"))
	f.Add([]byte(cacheMagic + key + " 0\n"))
	f.Add([]byte(cacheMagic + key + " 99999999999999999999\n"))
	f.Add([]byte(cacheMagic + key + " -1\n"))
	f.Add([]byte(cacheMagic + "-\n" + "b\x00" + key + " 0\n" + "a\x00" + key + " 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		own, kids, ok := parseListings(b)
		if !ok {
			return
		}
		for _, l := range append(slices.Collect(maps.Values(kids)), own) {
			if l == nil {
				continue
			}
			for _, n := range l.list() {
				if n == "" || strings.IndexByte(n, 0) >= 0 {
					t.Fatalf("name %q", n)
				}
			}
		}
		for k := range kids {
			if k == "" || strings.ContainsAny(k, "/\x00") {
				t.Fatalf("subdirectory %q", k)
			}
		}
		if back := appendListings(nil, own, kids); !bytes.Equal(back, b) {
			t.Fatalf("parsed %q, which is written %q", b, back)
		}
	})
}
