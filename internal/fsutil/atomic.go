package fsutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Errors of WriteFile, WriteFiles and CheckOutput, for errors.Is.
var (
	// ErrNotRegular: the destination exists and is not a regular file (nor
	// a symlink to one).
	ErrNotRegular = errors.New("not a regular file")
	// ErrInput: the destination is an input of the same command.
	ErrInput = errors.New("would replace an input")
	// ErrInterrupted: a signal arrived and CleanupOnSignal removed the
	// temporary files; nothing more is renamed into place.
	ErrInterrupted = errors.New("interrupted")
	// ErrTwice: the same input is named twice (CheckDistinct).
	ErrTwice = errors.New("named twice")
)

// File is one destination of WriteFiles: Write produces its content.
type File struct {
	Path  string
	Write func(w io.Writer) error
}

// WriteFile atomically replaces path with what write produces; see the
// package documentation for the rules (regular files only, symlinks
// written through, modes, temporary files).
func WriteFile(path string, write func(w io.Writer) error) error {
	return WriteFiles(File{Path: path, Write: write})
}

// WriteFiles writes each file to a temporary file beside its destination
// and, once every one is written, synced and closed, renames them into
// place in order and syncs their folders. If any write fails, no
// destination changes and every temporary file is removed. After the
// renames it removes stale temporary files of the same destinations (see
// the package documentation). Two files with the same destination are an
// error.
func WriteFiles(files ...File) (err error) {
	ts := make([]*target, 0, len(files))
	defer func() {
		if err != nil {
			for _, t := range ts {
				t.discard()
			}
		}
	}()
	for _, f := range files {
		t, err := resolve(f.Path)
		if err != nil {
			return err
		}
		for _, o := range ts {
			if o.same(t) {
				return fmt.Errorf("%s: written twice (also as %s)", t.path, o.path)
			}
		}
		ts = append(ts, t)
		if err := t.write(f.Write); err != nil {
			return err
		}
	}
	if err := commit(ts); err != nil {
		return err
	}
	synced := map[string]bool{}
	for _, t := range ts {
		if dir := filepath.Dir(t.dest); !synced[dir] {
			synced[dir] = true
			syncDir(dir)
		}
		removeStale(t.dest)
	}
	return nil
}

// CheckOutput reports, before any work is done, whether path may be
// written as an output of a command that reads inputs (files or folders;
// names that do not exist are skipped). A path that does not exist yet is
// fine. An existing path must be a regular file or a symlink to one
// (ErrNotRegular), and must not be the same file as an input, by device
// and inode rather than by name, nor a file inside an input folder
// (ErrInput).
func CheckOutput(path string, inputs ...string) error {
	t, err := resolve(path)
	if err != nil || !t.exists {
		return err
	}
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if err != nil {
			continue
		}
		if os.SameFile(fi, t.fi) {
			return fmt.Errorf("%s: %w: it is the same file as %s", path, ErrInput, in)
		}
		if fi.IsDir() && inside(t.dest, in) {
			return fmt.Errorf("%s: %w: it is a file inside the input folder %s", path, ErrInput, in)
		}
	}
	return nil
}

// CheckDistinct reports, before any work is done, an input (a file or a
// folder; names that do not exist are skipped) that is the same file as an
// earlier one, by device and inode, or lies inside an earlier (or later)
// input folder (ErrTwice): its documents or counts would be added twice.
func CheckDistinct(inputs ...string) error {
	type seen struct {
		name string
		fi   fs.FileInfo
	}
	var prev []seen
	for _, in := range inputs {
		fi, err := os.Stat(in)
		if err != nil {
			continue
		}
		for _, p := range prev {
			switch {
			case os.SameFile(fi, p.fi):
				return fmt.Errorf("%s: %w: it is the same file as %s, and would be counted twice", in, ErrTwice, p.name)
			case p.fi.IsDir() && inside(in, p.name):
				return fmt.Errorf("%s: %w: it lies inside the input folder %s, and would be counted twice", in, ErrTwice, p.name)
			case fi.IsDir() && inside(p.name, in):
				return fmt.Errorf("%s: %w: the input folder holds %s, which would be counted twice", in, ErrTwice, p.name)
			}
		}
		prev = append(prev, seen{in, fi})
	}
	return nil
}

// SamePath reports whether writes to a and b would replace the same file
// (symlinks resolved; by device and inode when both exist).
func SamePath(a, b string) bool {
	ta, err1 := resolve(a)
	tb, err2 := resolve(b)
	return err1 == nil && err2 == nil && ta.same(tb)
}

// inside reports whether file lies below the folder dir, symlinks
// resolved.
func inside(file, dir string) bool {
	rf, err1 := realPath(file)
	rd, err2 := realPath(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(rd, rf)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func realPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(r)
}

// target is a destination resolved for writing.
type target struct {
	path   string      // as given, for messages
	dest   string      // the file replaced: path, or the file its symlink names
	exists bool        // dest exists (and is a regular file)
	fi     fs.FileInfo // dest's, when it exists
	tmp    string      // the temporary file, "" once renamed or removed
	f      *os.File
}

// resolve checks path and returns what a write to it replaces.
func resolve(path string) (*target, error) {
	t := &target{path: path, dest: path}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		dest, err := filepath.EvalSymlinks(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w (a symlink to a missing file; a symlink is written through only to an existing regular file)", path, ErrNotRegular)
		}
		if err != nil {
			return nil, err
		}
		if fi, err = os.Stat(dest); err != nil {
			return nil, err
		}
		t.dest = dest
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	t.exists, t.fi = true, fi
	return t, nil
}

func notRegular(path string, m fs.FileMode) error {
	return fmt.Errorf("%s: %w but %s; nbtext writes outputs only to regular files", path, ErrNotRegular, Kind(m))
}

// Kind names the type of a file that is not regular, as an error message
// says it: "a folder", "a named pipe", "a character device", and so on.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "a special file"
}

// same reports whether t and o replace the same file.
func (t *target) same(o *target) bool {
	if t.exists && o.exists {
		return os.SameFile(t.fi, o.fi)
	}
	a, err1 := filepath.Abs(t.dest)
	b, err2 := filepath.Abs(o.dest)
	return err1 == nil && err2 == nil && a == b
}

// write writes the temporary file of t: a replaced file's permission bits
// from the start, else 0666 less the umask.
func (t *target) write(write func(io.Writer) error) error {
	perm := fs.FileMode(0o666)
	if t.exists {
		perm = t.fi.Mode().Perm()
	}
	f, tmp, err := createTemp(t.dest, perm)
	if err != nil {
		return fmt.Errorf("create %s: %w", t.path, err)
	}
	t.f, t.tmp = f, tmp
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("write %s: %w", t.path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", t.path, err)
	}
	if t.exists {
		// The umask may have cleared bits the replaced file had.
		if err := f.Chmod(perm); err != nil {
			return fmt.Errorf("write %s: %w", t.path, err)
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", t.path, err)
	}
	t.f = nil
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", t.path, err)
	}
	return nil
}

// discard closes and removes t's temporary file, if any.
func (t *target) discard() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
	if t.tmp != "" {
		os.Remove(t.tmp)
		unregister(t.tmp)
		t.tmp = ""
	}
}

// commit renames every temporary file over its destination, refusing a
// destination that became a non-regular file meanwhile. It holds the
// registry's lock, so that no rename happens once a signal's cleanup has
// begun.
func commit(ts []*target) error {
	temps.Lock()
	defer temps.Unlock()
	if temps.closed {
		return ErrInterrupted
	}
	for _, t := range ts {
		if fi, err := os.Lstat(t.dest); err == nil && !fi.Mode().IsRegular() {
			return notRegular(t.path, fi.Mode())
		}
		if err := os.Rename(t.tmp, t.dest); err != nil {
			return fmt.Errorf("rename into %s: %w", t.path, err)
		}
		delete(temps.names, t.tmp)
		t.tmp = ""
	}
	return nil
}

// syncDir makes the renames in dir durable; a folder that cannot be synced
// (some file systems refuse) is not an error for the caller.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
