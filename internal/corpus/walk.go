package corpus

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// A WalkFunc receives each document Walk finds, in order. A document that
// cannot be read comes with a non-nil err that names it (d.ID, and d.Text
// empty): a file with NUL bytes, which is not text, or one larger than the
// walk's bound. The walk goes on after such a document unless the WalkFunc
// returns an error; the first error a WalkFunc returns stops the walk and
// is returned as is.
type WalkFunc func(d Document, err error) error

// IsArchiveName reports whether Walk reads path, a file, as an archive by
// its name.
func IsArchiveName(path string) bool { return formatByName(path) == FormatTar }

// Walk calls fn with each document at path, one at a time and in a
// deterministic order, without holding the corpus in memory: the reader for
// the folders and archives of "nbtext predict". Every file is one
// unlabelled document whose ID is its path:
//
//   - a folder: every file below it, at any depth, depth first with each
//     folder's entries in byte order of their names (hidden names skipped,
//     files that are not regular skipped with a warning); ID is the file's
//     path (path joined with the path inside the folder);
//   - an archive (.tar.gz, .tgz, .tar by name, or opts.Format "tar"): every
//     file member, in archive order (hidden names skipped); ID is path +
//     "/" + the member's path;
//   - any other regular file, whatever its extension: one document, ID
//     path. A path that is neither a folder nor a regular file (a device, a
//     FIFO) is refused: it may never end.
//
// With opts.Format "tsv" or "jsonl" a file is read line by line as Read
// does, labels included. Texts are decoded and stripped as in Read. A
// document (a file or an archive member) larger than opts.MaxDocBytes is
// not read whole: fn gets it with an error, as it gets a file with NUL
// bytes. A folder's files are read in parallel batches. Split and Classes
// do not apply (an error).
func Walk(path string, opts Options, fn WalkFunc) error {
	if err := checkWalk(opts); err != nil {
		return err
	}
	if path == "-" {
		return WalkFrom(os.Stdin, "stdin", opts, fn)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return pathError(path, err)
	}
	format := opts.Format
	if format == "" || format == FormatAuto {
		switch {
		case fi.IsDir():
			format = FormatDir
		case formatByName(path) == FormatTar:
			format = FormatTar
		default:
			format = "" // one document
		}
	}
	switch {
	case format == FormatDir && !fi.IsDir():
		return fmt.Errorf("%s: not a folder (input format dir)", path)
	case format != FormatDir && fi.IsDir():
		return fmt.Errorf("%s: is a folder, not a %s file", path, format)
	case format == FormatDir:
		return walkDir(path, &opts, fn)
	}
	f, err := OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return walkStream(path, format, f, nameCodec(path), &opts, fn)
}

// OpenRegular opens the file at path for reading when it is a regular
// file: a device such as /dev/zero or a FIFO may never end (and opening a
// FIFO blocks until someone writes to it), so only stdin may be one. It
// checks the path before opening it and the open file again.
func OpenRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, NotRegular(path, fi)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, pathError(path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, NotRegular(path, fi)
	}
	return f, nil
}

// NotRegular is the error for path, whose file info is fi, when it is not
// a regular file (a folder, a device, a pipe): it names what it is.
func NotRegular(path string, fi os.FileInfo) error {
	if fi.IsDir() {
		return fmt.Errorf("%s: is a folder", path)
	}
	return fmt.Errorf("%s: not a regular file (%s); only stdin may be a device or a pipe", path, fsutil.Kind(fi.Mode()))
}

// ErrTooLarge matches the error a WalkFunc gets for a document larger than
// the walk's bound, and readInto's error for a file over its size bound.
var ErrTooLarge = errors.New("document too large")

// ErrBinary matches the error a WalkFunc gets for a document with NUL
// bytes.
var ErrBinary = errors.New("document with NUL bytes")

// docError is a document Walk could not read: its message names the
// document, and it matches ErrTooLarge or ErrBinary.
type docError struct {
	msg  string
	kind error
}

func (e *docError) Error() string { return e.msg }
func (e *docError) Unwrap() error { return e.kind }

// docTooLarge is the error for the document id larger than max bytes.
func docTooLarge(id string, max int) error {
	return &docError{tooLarge(id, max).Error(), ErrTooLarge}
}

// binary is the error for the document id with NUL bytes.
func binary(id string) error {
	return &docError{id + ": contains NUL bytes: not text", ErrBinary}
}

// WalkFrom is Walk on a stream named name ("stdin" for standard input): by
// default the whole stream is one document with ID name; opts.Format "tsv"
// or "jsonl" reads it line by line, "tar" as an archive.
func WalkFrom(r io.Reader, name string, opts Options, fn WalkFunc) error {
	if err := checkWalk(opts); err != nil {
		return err
	}
	format, err := streamFormat(name, opts.Format)
	if err != nil {
		return err
	}
	return walkStream(name, format, r, codecNone, &opts, fn)
}

// checkWalk rejects the options Walk does not take.
func checkWalk(opts Options) error {
	if err := checkFormat(opts.Format); err != nil {
		return err
	}
	if opts.Split != "" || len(opts.Classes) > 0 {
		return errors.New("walk reads every file as a document: split and classes do not apply")
	}
	return nil
}

// walkStream walks the stream r in format: "" (one document), "tar",
// "tsv" or "jsonl". want is the compression the name announces (see
// nameCodec): an archive or record file that is not so compressed is an
// error, as in Read.
func walkStream(src, format string, r io.Reader, want string, opts *Options, fn WalkFunc) error {
	switch format {
	case FormatTar:
		return walkTar(src, r, want, opts, fn)
	case FormatTSV, FormatJSONL:
		return scanLines(src, format, r, want, opts, func(d Document) error {
			d.Text = Strip(d.Text, opts.Remove)
			return fn(d, nil)
		})
	}
	b, err := readAll(nil, io.LimitReader(r, int64(opts.maxDoc())+1))
	if err != nil {
		return pathError(src, err)
	}
	return emit(Document{ID: src}, b, opts, fn)
}

// emit decodes and strips b into d and calls fn, or calls fn with an error
// when b holds NUL bytes or more than opts.MaxDocBytes.
func emit(d Document, b []byte, opts *Options, fn WalkFunc) error {
	switch {
	case len(b) > opts.maxDoc():
		return fn(d, docTooLarge(d.ID, opts.maxDoc()))
	case hasNUL(b):
		return fn(d, binary(d.ID))
	}
	d.Text = Strip(Decode(b), opts.Remove)
	return fn(d, nil)
}

// emitOwned is emit for b, a buffer that is the document's own: its text
// shares b's memory when b is valid UTF-8, so b must not change after.
func emitOwned(d Document, b []byte, opts *Options, fn WalkFunc) error {
	if len(b) == 0 || len(b) > opts.maxDoc() || hasNUL(b) || !utf8.Valid(b) {
		return emit(d, b, opts, fn)
	}
	d.Text = Strip(unsafe.String(&b[0], len(b)), opts.Remove)
	return fn(d, nil)
}

// walkTar calls fn with every file member of the archive r, in archive
// order; decompression runs ahead on its own goroutine while fn works. A
// member larger than maxDoc is skipped unread (the tar reader seeks past
// it or reads it in small pieces).
func walkTar(src string, r io.Reader, want string, opts *Options, fn WalkFunc) error {
	s, stop, err := tarStream(src, r, want)
	if err != nil {
		return err
	}
	defer stop()
	tr := tar.NewReader(s)
	buf := make([]byte, 0, 256<<10)
	maxDoc := opts.maxDoc()
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			if _, err := io.Copy(io.Discard, s); err != nil { // check the gzip trailer
				return corrupt(src, err)
			}
			return nil
		}
		if err != nil {
			return corrupt(src, err)
		}
		name := cleanName(hdr.Name)
		if name == "" || hdr.Typeflag != tar.TypeReg {
			continue
		}
		id := src + "/" + name
		if hdr.Size > int64(maxDoc) {
			if err := fn(Document{ID: id}, docTooLarge(id, maxDoc)); err != nil {
				return err
			}
			continue
		}
		if err := opts.room(hdr.Size); err != nil {
			return err
		}
		if hdr.Size > keepMember {
			// A huge member gets a buffer of its own, handed over
			// with its text (no copy): fn may keep the text.
			b, err := readMember(nil, tr, hdr.Size)
			if err != nil {
				return corrupt(src, err)
			}
			if err := emitOwned(Document{ID: id}, b, opts, fn); err != nil {
				return err
			}
			continue
		}
		buf, err = readMember(buf[:0], tr, hdr.Size)
		if err != nil {
			return corrupt(src, err)
		}
		if err := emit(Document{ID: id}, buf, opts, fn); err != nil {
			return err
		}
	}
}

// walkBatch is how many files walkDir reads ahead in parallel.
const walkBatch = 512

// walkDir calls fn with every file below root in path order, reading a
// batch of files in parallel ahead of fn. A file larger than the bound is
// not read whole.
func walkDir(root string, opts *Options, fn WalkFunc) error {
	var paths []string
	var sizes []int64 // of paths, -1 when unknown
	// A trailing separator makes WalkDir follow a root that is a link.
	start := root
	if !strings.HasSuffix(start, string(filepath.Separator)) {
		start += string(filepath.Separator)
	}
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return pathError(p, err)
		}
		if p != start && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		t := d.Type()
		size := int64(-1)
		if t&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err == nil {
				t, size = fi.Mode().Type(), fi.Size()
			} else {
				t = 0 // dangling: reading it reports the error
			}
		} else if fi, err := d.Info(); err == nil && t.IsRegular() {
			size = fi.Size()
		}
		switch {
		case t.IsRegular():
			paths = append(paths, p)
			sizes = append(sizes, size)
		case !t.IsDir():
			opts.warn("%s: ignoring %s: not a regular file", root, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	maxDoc := opts.maxDoc()
	bound := &Options{MaxDocBytes: maxDoc}
	for len(paths) > 0 {
		k := nextBatch(sizes)
		if err := opts.room(sumSizes(sizes[:k])); err != nil {
			return err
		}
		batch := paths[:k]
		paths, sizes = paths[k:], sizes[k:]
		texts, nul, errs := readFiles(batch, bound)
		for i, p := range batch {
			var err error
			switch {
			case errs[i] != nil:
				if fi, serr := os.Stat(p); serr != nil || fi.Size() <= int64(maxDoc) {
					return errs[i]
				}
				err = fn(Document{ID: p}, docTooLarge(p, maxDoc))
			case nul[i]:
				err = fn(Document{ID: p}, binary(p))
			default:
				err = fn(Document{ID: p, Text: Strip(texts[i], opts.Remove)}, nil)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
