package corpus

import (
	"archive/tar"
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// Stream calls fn with each document of the labelled corpus at path, one
// at a time and without holding the corpus in memory: the documents Read
// returns with the same options (every source and format, compression,
// Split, Classes, Remove, record fields), with the same warnings and
// errors, except that an error may come after some documents were given.
// The first error fn returns stops the stream and is returned as is.
//
// The order is deterministic. Folder trees and record files come in Read's
// order (trees by label, then by file name; records in record order).
// Archives come in archive order, the order their members are stored in,
// which is Read's order for an archive written sorted (as both shared
// corpora are, and as "tar --sort=name" writes): an archive cannot be
// sorted without holding it. An archive is read twice: once for its member
// names, from which its layout (wrapping, split and label folders,
// duplicate names: the last member wins) is found as Read finds it, then
// for the texts. A stream holding an archive (standard input) is spooled,
// decompressed, to an unlinked temporary file for that.
//
// Memory holds one document (a batch of 512 for folders) and, while a
// tree's layout is found, the names of its files; never the texts of the
// corpus.
func Stream(path string, opts Options, fn func(Document) error) error {
	if path == "-" {
		return StreamFrom(os.Stdin, "stdin", opts, fn)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return pathError(path, err)
	}
	format, err := sourceFormat(path, fi.IsDir(), opts.Format)
	if err != nil {
		return err
	}
	if format == FormatDir {
		return streamDir(path, &opts, fn)
	}
	f, err := OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return streamSource(path, f, fi.Size(), format, isTxtName(path), f, &opts, fn)
}

// StreamFrom is Stream on the stream r, named name in document IDs and
// messages ("stdin" for standard input), read as ReadFrom reads it.
func StreamFrom(r io.Reader, name string, opts Options, fn func(Document) error) error {
	format, err := streamFormat(name, opts.Format)
	if err != nil {
		return err
	}
	return streamSource(name, r, 0, format, true, nil, &opts, fn)
}

// streamSource streams the source r named src (see readSource); file is r
// when it is a regular file that can be read again, else nil.
func streamSource(src string, r io.Reader, size int64, format string, fallbackTSV bool, file *os.File, opts *Options, fn func(Document) error) error {
	o, err := openFormat(src, r, size, format, fallbackTSV, opts)
	if err != nil {
		return err
	}
	if o.format != FormatTar {
		defer o.stop()
		if file != nil && o.codec == codecNone {
			at := *opts
			at.at = file
			opts = &at
		}
		return streamRecords(src, o, opts, fn)
	}
	if file == nil {
		sp, err := spool(src, o.r)
		o.stop()
		if err != nil {
			return err
		}
		defer sp.Close()
		file = sp.File
		fi, err := file.Stat()
		if err != nil {
			return pathError(file.Name(), err)
		}
		size = fi.Size()
	} else {
		o.stop()
	}
	return streamTar(src, file, size, opts, fn)
}

// spool copies r to a new scratch file, which the caller closes.
func spool(src string, r io.Reader) (*fsutil.Scratch, error) {
	f, err := fsutil.NewScratch("", "nbtext-spool-*")
	if err != nil {
		return nil, fmt.Errorf("%s: spool: %w", src, err)
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: spool to %s: %w", src, f.Name(), err)
	}
	return f, nil
}

// streamRecords streams the records of the opened record file o, keeping
// those of opts.Classes (openFormat has refused opts.Split).
func streamRecords(src string, o *opened, opts *Options, fn func(Document) error) error {
	keep := classSet(opts.Classes)
	seen := map[string]bool{}
	see := func(l string) {
		if !seen[l] {
			seen[strings.Clone(l)] = true // l may be transient
		}
	}
	n := 0
	shared := *opts
	shared.shared = opts.Transient
	err := scanRecords(src, o.format, o.r.(*bufio.Reader), &shared, o.progress, func(d Document) error {
		if keep != nil {
			see(d.Label)
			for _, l := range d.Labels {
				see(l)
			}
			if !keepClasses(&d, keep) {
				return nil
			}
		}
		if opts.Remove != 0 {
			d.Text = Strip(d.Text, opts.Remove)
		}
		n++
		return fn(d)
	})
	if err != nil {
		return err
	}
	if keep != nil {
		avail := make([]string, 0, len(seen))
		for l := range seen {
			avail = append(avail, l)
		}
		sort.Strings(avail)
		if _, err := selectClasses(src, avail, opts.Classes); err != nil {
			return err
		}
	}
	if n == 0 {
		return fmt.Errorf("%s: no documents", src)
	}
	return nil
}

// classSet returns the set of classes, or nil for none.
func classSet(classes []string) map[string]bool {
	if len(classes) == 0 {
		return nil
	}
	keep := make(map[string]bool, len(classes))
	for _, c := range classes {
		keep[c] = true
	}
	return keep
}

// keepClasses reports whether d has a label of keep, and leaves it only
// those (Label the first of them).
func keepClasses(d *Document, keep map[string]bool) bool {
	if d.Labels == nil {
		return keep[d.Label]
	}
	var ls []string
	for _, l := range d.Labels {
		if keep[l] {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return false
	}
	d.Label, d.Labels = ls[0], ls
	return true
}

// streamDir streams a labelled folder tree (see planTree) in Read's order,
// reading a batch of files in parallel ahead of fn.
func streamDir(root string, opts *Options, fn func(Document) error) error {
	y, err := planTree(root, "folder", dirLister{root, opts}, opts)
	if err != nil {
		return err
	}
	total := 0
	for _, l := range y.labels {
		total += len(l.files)
	}
	bound := &Options{MaxDocBytes: opts.maxDoc()}
	var ids, labels, paths []string
	var bytes int64 // of the files of paths, as far as known
	done, n := 0, 0
	flush := func() error {
		if len(paths) == 0 {
			return nil
		}
		if err := opts.room(bytes); err != nil {
			return err
		}
		texts, nul, errs := readFiles(paths, bound)
		if err := firstError(errs); err != nil {
			return err
		}
		if opts.Remove != 0 {
			parallel(len(texts), func(i int) { texts[i] = Strip(texts[i], opts.Remove) })
		}
		for i, p := range paths {
			if nul[i] {
				opts.warn("%s: skipping document: contains NUL bytes", p)
				continue
			}
			n++
			if err := fn(Document{ID: ids[i], Label: labels[i], Text: texts[i]}); err != nil {
				return err
			}
		}
		done += len(paths)
		if opts.Progress != nil {
			opts.Progress(done, total)
		}
		if bytes >= collectAfter {
			// The batch's texts are garbage now, as large as the batch:
			// collect them before the next batch is read, or the heap
			// grows to twice what is live (GOGC) before they go.
			texts = nil
			runtime.GC()
		}
		ids, labels, paths, bytes = ids[:0], labels[:0], paths[:0], 0
		return nil
	}
	for i := range y.labels {
		l := &y.labels[i]
		for _, f := range l.files {
			rel := y.rel(l, f)
			p := filepath.Join(root, filepath.FromSlash(rel))
			var size int64
			if fi, err := os.Stat(p); err == nil {
				size = fi.Size()
			}
			// A batch's texts are all held until it is passed on: it
			// ends before batchBytes (a huge file goes alone).
			if len(paths) > 0 && bytes+size > batchBytes {
				if err := flush(); err != nil {
					return err
				}
			}
			ids = append(ids, rel)
			labels = append(labels, l.name)
			paths = append(paths, p)
			bytes += size
			if len(paths) == walkBatch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s: no documents", root)
	}
	return nil
}

// streamTar streams the labelled archive in f (size bytes; compressed or
// not) in two passes: the plan from the member names, then the texts.
func streamTar(src string, f *os.File, size int64, opts *Options, fn func(Document) error) error {
	open := func(o *Options) (io.Reader, func(), func(bool), error) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, nil, pathError(src, err)
		}
		s, stop, _, progress, err := openSource(src, f, size, o)
		return s, stop, progress, err
	}
	quiet := *opts
	quiet.Progress = nil
	r, stop, _, err := open(&quiet)
	if err != nil {
		return err
	}
	plan, err := planArchive(src, r, opts)
	stop()
	if err != nil {
		return err
	}
	r, stop, progress, err := open(opts)
	if err != nil {
		return err
	}
	defer stop()
	return plan.stream(src, r, opts, progress, fn)
}

// archivePlan is where the documents of an archive are, found from its
// member names by planTree.
type archivePlan struct {
	labels map[string]string // label folder (slash path) -> label
	// left counts the members of a document named more than once that
	// are still to come: the last one is the document.
	left map[string]int
	skip map[string]bool // files named like a folder: the folder wins
	docs int             // documents planned
}

// planArchive reads the member names of the archive r and plans its
// documents as readTar does.
func planArchive(src string, r io.Reader, opts *Options) (*archivePlan, error) {
	t := tarLister{"": {dirs: map[string]bool{}}}
	members := 0
	max := opts.maxDoc()
	err := eachMember(src, r, opts, true, func(_ *tar.Reader, m tarMember) error {
		members++
		if !m.dir && m.store && m.hdr.Size > int64(max) {
			return tooLarge(src+": "+m.name, max)
		}
		t.add(m.name, m.dir)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if members == 0 {
		return nil, fmt.Errorf("%s: empty archive", src)
	}
	y, err := planTree(src, "archive", t, opts)
	if err != nil {
		return nil, err
	}
	p := &archivePlan{labels: map[string]string{}, left: map[string]int{}, skip: map[string]bool{}}
	for _, l := range y.labels {
		dir := path.Join(y.top, l.name)
		p.labels[dir] = l.name
		p.docs += len(l.files)
		folder := t[dir]
		names := append([]string(nil), folder.files...)
		sort.Strings(names)
		for i := 0; i < len(names); {
			j := i + 1
			for j < len(names) && names[j] == names[i] {
				j++
			}
			rel := path.Join(dir, names[i])
			switch {
			case folder.dirs[names[i]]:
				p.skip[rel] = true
			case j-i > 1:
				p.left[rel] = j - i
			}
			i = j
		}
	}
	return p, nil
}

// stream reads the archive r again and calls fn with each planned
// document, in archive order.
func (p *archivePlan) stream(src string, r io.Reader, opts *Options, progress func(bool), fn func(Document) error) error {
	buf := make([]byte, 0, 256<<10)
	max := opts.maxDoc()
	seen, n := 0, 0
	err := eachMember(src, r, opts, false, func(tr *tar.Reader, m tarMember) error {
		if progress != nil {
			progress(false)
		}
		if m.dir || !m.store || p.skip[m.name] {
			return nil
		}
		label, ok := p.labels[path.Dir(m.name)]
		if !ok {
			return nil
		}
		if k, dup := p.left[m.name]; dup {
			p.left[m.name] = k - 1
			if k > 1 {
				return nil // a later member of the same name wins
			}
		}
		seen++
		if m.hdr.Size > int64(max) {
			return tooLarge(src+": "+m.name, max)
		}
		if err := opts.room(m.hdr.Size); err != nil {
			return err
		}
		if m.hdr.Size <= keepMember && cap(buf) > keepMember {
			buf = make([]byte, 0, 256<<10) // one huge member must not pin its memory
		}
		var err error
		if buf, err = readMember(buf[:0], tr, m.hdr.Size); err != nil {
			return corrupt(src, err)
		}
		if hasNUL(buf) {
			opts.warn("%s: skipping document %s: contains NUL bytes", src, m.name)
			return nil
		}
		// Transient, the text shares buf until fn returns, and a run of
		// huge members reuses one buffer; otherwise a huge member's
		// buffer is handed over with its text.
		own := !opts.Transient && len(buf) > keepMember
		text := lineText(buf, opts.Transient || own)
		if own {
			buf = make([]byte, 0, 256<<10)
		}
		if opts.Remove != 0 {
			text = Strip(text, opts.Remove)
		}
		n++
		return fn(Document{ID: m.name, Label: label, Text: text})
	})
	if err != nil {
		return err
	}
	if progress != nil {
		progress(true)
	}
	switch {
	case seen != p.docs:
		return fmt.Errorf("%s: the archive changed while it was read (%d documents planned, %d found)", src, p.docs, seen)
	case n == 0:
		return fmt.Errorf("%s: no documents", src)
	}
	return nil
}
