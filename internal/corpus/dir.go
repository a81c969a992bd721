package corpus

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// dirLister lists the folders of a tree on disk.
type dirLister struct {
	root string
	opts *Options
}

func (d dirLister) list(rel string) (dirs, files []string, err error) {
	full := filepath.Join(d.root, filepath.FromSlash(rel))
	ents, err := os.ReadDir(full)
	if err != nil {
		return nil, nil, pathError(full, err)
	}
	for _, e := range ents { // os.ReadDir sorts by name
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			fi, err := os.Stat(filepath.Join(full, name))
			if err != nil {
				// A dangling link: list it as a file so reading it
				// reports the error.
				files = append(files, name)
				continue
			}
			t = fi.Mode().Type()
		}
		switch {
		case t.IsDir():
			dirs = append(dirs, name)
		case t.IsRegular():
			files = append(files, name)
		default:
			d.opts.warn("%s: ignoring %s: not a regular file", d.root, filepath.Join(full, name))
		}
	}
	return dirs, files, nil
}

// pathError returns err as "PATH: reason", dropping the operation that
// *fs.PathError adds ("open PATH: ...") and keeping the cause for errors.Is.
func pathError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", p, err)
}

// readDirTree reads a labelled folder tree; see planTree for the layouts.
// Files are read in parallel and kept in tree order.
func readDirTree(root string, opts *Options) ([]Document, error) {
	y, err := planTree(root, "folder", dirLister{root, opts}, opts)
	if err != nil {
		return nil, err
	}
	type ref struct {
		rel, label string
	}
	var refs []ref
	for i := range y.labels {
		l := &y.labels[i]
		for _, f := range l.files {
			refs = append(refs, ref{y.rel(l, f), l.name})
		}
	}
	paths := make([]string, len(refs))
	for i, r := range refs {
		paths[i] = filepath.Join(root, filepath.FromSlash(r.rel))
	}
	texts, nul, errs := readFiles(paths, opts)
	if err := firstError(errs); err != nil {
		return nil, err
	}
	docs := make([]Document, 0, len(refs))
	for i, r := range refs {
		if nul[i] {
			opts.warn("%s: skipping document: contains NUL bytes", paths[i])
			continue
		}
		docs = append(docs, Document{ID: r.rel, Label: r.label, Text: texts[i]})
	}
	return docs, nil
}

// readWorkers is how many files are read at once: reads from the page cache
// are system calls that block their thread, so a few more than the cores.
func readWorkers(n int) int {
	w := 2 * runtime.GOMAXPROCS(0)
	if w > 8 {
		w = 8
	}
	if w > n {
		w = n
	}
	if w < 1 {
		w = 1
	}
	return w
}

// readFiles reads and decodes the files at paths in parallel. texts[i] is
// the text of paths[i]; nul[i] marks a file with NUL bytes and errs[i] a
// file that could not be read (its text is empty then). Every file is
// tried, so which errors come back does not depend on timing.
func readFiles(paths []string, opts *Options) (texts []string, nul []bool, errs []error) {
	texts = make([]string, len(paths))
	nul = make([]bool, len(paths))
	errs = make([]error, len(paths))
	var next, done atomic.Int64
	var mu sync.Mutex // serialises Progress
	var wg sync.WaitGroup
	for w := readWorkers(len(paths)); w > 0; w-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 64<<10)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				var err error
				if cap(buf) > keepMember {
					buf = make([]byte, 0, 64<<10) // a huge file's buffer must not stay
				}
				buf, err = readInto(buf[:0], paths[i], opts.maxDoc())
				switch {
				case err == ErrTooLarge:
					errs[i] = tooLarge(paths[i], opts.maxDoc())
				case err != nil:
					errs[i] = err
				case hasNUL(buf):
					nul[i] = true
				default:
					var own bool
					if texts[i], own = fileText(buf); own {
						buf = make([]byte, 0, 64<<10)
					}
				}
				if d := done.Add(1); opts.Progress != nil && (d%256 == 0 || int(d) == len(paths)) {
					mu.Lock()
					opts.Progress(int(d), len(paths))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return texts, nul, errs
}

// firstError returns the first non-nil error of errs.
func firstError(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// growFor returns buf with room for a file of size bytes past keepMember
// and the read that finds its end: a buffer of exactly what the file
// needs, not the up to twice as much of a buffer growing while it reads.
func growFor(buf []byte, size int64) []byte {
	if size <= keepMember || int64(cap(buf)-len(buf)) > size {
		return buf
	}
	nb := make([]byte, len(buf), int64(len(buf))+size+1)
	copy(nb, buf)
	return nb
}

// fileText decodes the content b of a file read by readFiles into a
// buffer of its own, and reports whether the text shares b (a file past
// keepMember, valid UTF-8): then b is handed over with it, not reused.
func fileText(b []byte) (string, bool) {
	if len(b) > keepMember && utf8.Valid(b) {
		return unsafe.String(&b[0], len(b)), true
	}
	return Decode(b), false
}

// batchBytes bounds the bytes of the files a folder reader reads in one
// parallel batch (with at most walkBatch files): a batch's texts are all
// held until it is passed on, so a folder of huge files is read a few
// at a time, and a file past the bound alone.
const batchBytes = 64 << 20

// nextBatch returns how many of the files of sizes (bytes, -1 unknown)
// make the next batch: at most walkBatch, at least one, and no more than
// batchBytes together unless the first alone is larger.
func nextBatch(sizes []int64) int {
	var sum int64
	for i, n := range sizes {
		if i == walkBatch || (i > 0 && sum+max(n, 0) > batchBytes) {
			return i
		}
		sum += max(n, 0)
	}
	return len(sizes)
}

// sumSizes returns the sum of the known sizes.
func sumSizes(sizes []int64) int64 {
	var sum int64
	for _, n := range sizes {
		sum += max(n, 0)
	}
	return sum
}

// readAll appends everything r yields to buf, growing it as needed, so a
// size claimed by a header is never trusted for allocation.
func readAll(buf []byte, r io.Reader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
