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
)

// Walk calls fn with each document at path, one at a time and in a
// deterministic order, without holding the corpus in memory: the reader for
// "nbtext predict FILE|DIR|ARCHIVE...". Every file is one unlabelled
// document whose ID is its path:
//
//   - a folder: every file below it, at any depth, depth first with each
//     folder's entries in byte order of their names (hidden names skipped);
//     ID is the file's path (path joined with the path inside the folder);
//   - an archive (.tar.gz, .tgz, .tar by name, or opts.Format "tar"): every
//     file member, in archive order (hidden names skipped); ID is path +
//     "/" + the member's path;
//   - any other file, whatever its extension: one document, ID path.
//
// With opts.Format "tsv" or "jsonl" a file is read line by line as Read
// does, labels included. Texts are decoded and stripped as in Read; a file
// with NUL bytes is skipped with a warning. Split and Classes do not apply
// (an error). The first error from fn stops the walk and is returned as is.
func Walk(path string, opts Options, fn func(Document) error) error {
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
	f, err := os.Open(path)
	if err != nil {
		return pathError(path, err)
	}
	defer f.Close()
	return walkStream(path, format, f, isGzipName(path), &opts, fn)
}

// WalkFrom is Walk on a stream named name ("stdin" for standard input): by
// default the whole stream is one document with ID name; opts.Format "tsv"
// or "jsonl" reads it line by line, "tar" as an archive.
func WalkFrom(r io.Reader, name string, opts Options, fn func(Document) error) error {
	if err := checkWalk(opts); err != nil {
		return err
	}
	format := opts.Format
	switch format {
	case FormatAuto:
		format = ""
	case FormatDir:
		return fmt.Errorf("%s: a stream cannot be read as a folder", name)
	}
	return walkStream(name, format, r, false, &opts, fn)
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
// "tsv" or "jsonl".
func walkStream(src, format string, r io.Reader, wantGzip bool, opts *Options, fn func(Document) error) error {
	switch format {
	case FormatTar:
		return walkTar(src, r, wantGzip, opts, fn)
	case FormatTSV, FormatJSONL:
		return scanLines(src, format, r, 0, opts, func(d Document) error {
			d.Text = Strip(d.Text, opts.Remove)
			return fn(d)
		})
	}
	b, err := readAll(nil, r)
	if err != nil {
		return pathError(src, err)
	}
	return emit(Document{ID: src}, b, opts, fn)
}

// emit decodes and strips b into d and calls fn, or warns and skips d when
// b holds NUL bytes.
func emit(d Document, b []byte, opts *Options, fn func(Document) error) error {
	if hasNUL(b) {
		opts.warn("%s: skipping document: contains NUL bytes", d.ID)
		return nil
	}
	d.Text = Strip(Decode(b), opts.Remove)
	return fn(d)
}

// walkTar calls fn with every file member of the archive r, in archive
// order; decompression runs ahead on its own goroutine while fn works.
func walkTar(src string, r io.Reader, wantGzip bool, opts *Options, fn func(Document) error) error {
	s, stop, err := tarStream(src, r, wantGzip)
	if err != nil {
		return err
	}
	defer stop()
	tr := tar.NewReader(s)
	buf := make([]byte, 0, 256<<10)
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
		buf, err = readAll(buf[:0], tr)
		if err != nil {
			return corrupt(src, err)
		}
		if err := emit(Document{ID: src + "/" + name}, buf, opts, fn); err != nil {
			return err
		}
	}
}

// walkBatch is how many files walkDir reads ahead in parallel.
const walkBatch = 512

// walkDir calls fn with every file below root in path order, reading a
// batch of files in parallel ahead of fn.
func walkDir(root string, opts *Options, fn func(Document) error) error {
	var paths []string
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
		if t&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err == nil {
				t = fi.Mode().Type()
			} else {
				t = 0 // dangling: reading it reports the error
			}
		}
		switch {
		case t.IsRegular():
			paths = append(paths, p)
		case !t.IsDir():
			opts.warn("%s: ignoring %s: not a regular file", root, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for len(paths) > 0 {
		batch := paths[:min(walkBatch, len(paths))]
		paths = paths[len(batch):]
		texts, nul, errs := readFiles(batch, &Options{})
		for i, p := range batch {
			switch {
			case errs[i] != nil:
				return errs[i]
			case nul[i]:
				opts.warn("%s: skipping document: contains NUL bytes", p)
				continue
			}
			if err := fn(Document{ID: p, Text: Strip(texts[i], opts.Remove)}); err != nil {
				return err
			}
		}
	}
	return nil
}
