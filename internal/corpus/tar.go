package corpus

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"sync/atomic"
)

// tarEntry is one member of an archive as the reader keeps it.
type tarEntry struct {
	name   string // cleaned slash path
	dir    bool
	stored bool // the text was kept (files under the asked-for split)
	nul    bool // the file holds NUL bytes; text is empty
	text   string
	// For ReadStream: whether the text was emitted (then stripped), and
	// its number in the stream.
	emitted bool
	seq     int
}

// docStream hands the texts of an archive to ReadStream's consumer as they
// are decoded.
type docStream struct {
	emit    func(text string)
	n       int             // texts emitted so far
	classes map[string]bool // labels of Options.Classes; nil: all
	drop    bool            // Options.DropTexts: keep no text once emitted
}

// send strips text as opts.Remove says, emits it and returns it with its
// number.
func (st *docStream) send(text string, opts *Options) (string, int) {
	if opts.Remove != 0 {
		text = Strip(text, opts.Remove)
	}
	st.emit(text)
	st.n++
	return text, st.n - 1
}

// wants reports whether the file name may be a document of the result:
// with a class filter, only files in a folder named like a kept class can
// be (documents are the files directly inside their label folder).
func (st *docStream) wants(name string) bool {
	if st.classes == nil {
		return true
	}
	return st.classes[path.Base(path.Dir(name))]
}

// inUnsup reports whether the member name sits directly in a folder named
// unsupFolder.
func inUnsup(name string) bool {
	dir, _ := path.Split(name)
	return strings.HasSuffix(dir, "/"+unsupFolder+"/") || dir == unsupFolder+"/"
}

// corrupt wraps an error met while reading the archive src.
func corrupt(src string, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: truncated archive: %w", src, err)
	}
	return fmt.Errorf("%s: corrupt archive: %w", src, err)
}

// tarStream opens the tar stream in r: decompressed on its own goroutine
// when r starts with the magic bytes of gzip, zstd or bzip2, as is
// otherwise. want, when not codecNone, makes a stream not so compressed
// an error (see nameCodec). The
// returned stop ends the decompressor; call it once done with the stream.
func tarStream(src string, r io.Reader, want string) (io.Reader, func(), error) {
	s, stop, codec, err := decompress(src, r)
	if err != nil {
		return nil, nil, err
	}
	if err := checkCodec(src, want, codec); err != nil {
		stop()
		return nil, nil, err
	}
	return s, stop, nil
}

// cleanName returns the slash path of an archive member relative to the
// archive root, or "" for a name that names nothing ("." or "/") or has a
// hidden component.
func cleanName(name string) string {
	if strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	if !isClean(name) {
		name = strings.TrimLeft(path.Clean("/"+name), "/")
	}
	if name == "" || name[0] == '.' || strings.Contains(name, "/.") {
		return ""
	}
	return name
}

// isClean reports whether name is a relative slash path in the form
// path.Clean leaves alone, without "." or ".." components: the common case,
// checked without allocating.
func isClean(name string) bool {
	if name == "" || name[0] == '/' || name[len(name)-1] == '/' || strings.Contains(name, "//") {
		return false
	}
	for c := range strings.SplitSeq(name, "/") {
		if c == "." || c == ".." {
			return false
		}
	}
	return true
}

// splitPrefix returns the folder of name that matches split: its first
// component, or its second under a wrapping first that names no split.
// It returns "" when there is none.
func splitPrefix(name, split string) string {
	first, rest, ok := strings.Cut(name, "/")
	if matchesSplit(first, split) {
		return first
	}
	if !ok || splitKind(first) != "" {
		return ""
	}
	second, _, _ := strings.Cut(rest, "/")
	if matchesSplit(second, split) {
		return first + "/" + second
	}
	return ""
}

// under reports whether name is dir or inside it.
func under(name, dir string) bool {
	return name == dir || strings.HasPrefix(name, dir) && name[len(dir)] == '/'
}

// tarMember is a member of an archive as eachMember passes it on.
type tarMember struct {
	hdr   *tar.Header
	name  string // cleaned slash path
	dir   bool
	store bool // under the asked-for split and not unlabelled: maybe a document
}

// eachMember calls fn with each folder and regular file member of the tar
// stream r (its content readable from tr until the next call), skipping
// links and GNU sparse files (with a warning when warnLinks is set),
// extension records and special files. With opts.Split set only the members under the matching
// split folder are stored, and reading stops at the first member past
// that folder: an archive holds a folder's members together (tar, bsdtar
// and Python's tarfile all write them so), and in the 20 Newsgroups
// archive the train folder comes first, so the test half is never
// decompressed. Read to its end, the stream's gzip trailer is checked too.
func eachMember(src string, r io.Reader, opts *Options, warnLinks bool, fn func(tr *tar.Reader, m tarMember) error) error {
	tr := tar.NewReader(r)
	active := "" // the split folder being read
	keepUnsup := contains(opts.Classes, unsupFolder)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			// Read what follows the end marker, so that gzip checks its
			// trailer (CRC-32 and length) and a damaged one is reported.
			if _, err := io.Copy(io.Discard, r); err != nil {
				return corrupt(src, err)
			}
			return nil
		}
		if err != nil {
			return corrupt(src, err)
		}
		name := cleanName(hdr.Name)
		if name == "" {
			continue
		}
		var dir bool
		switch hdr.Typeflag {
		case tar.TypeDir:
			dir = true
		case tar.TypeReg: // archive/tar reports old-style TypeRegA as TypeReg
		case tar.TypeSymlink, tar.TypeLink:
			if warnLinks {
				opts.warn("%s: ignoring %s: links are not followed in archives", src, name)
			}
			continue
		case tar.TypeGNUSparse: // tar -S: its holes would read as NUL bytes
			if warnLinks {
				opts.warn("%s: skipping %s: a sparse file (tar -S), whose holes read as NUL bytes", src, name)
			}
			continue
		default:
			continue // pax and GNU extension records, devices, fifos
		}
		store := true
		if opts.Split != "" {
			if active != "" && !under(name, active) {
				return nil // past the split folder
			}
			p := splitPrefix(name, opts.Split)
			if active == "" && p != "" {
				active = p
			}
			store = p != ""
		}
		if store && !dir && !keepUnsup && inUnsup(name) {
			store = false // unlabelled: planTree skips the folder
		}
		if err := fn(tr, tarMember{hdr: hdr, name: name, dir: dir, store: store}); err != nil {
			return err
		}
	}
}

// keepMember is the largest buffer a reader of archive members keeps
// from one member to the next when the next is small.
const keepMember = 4 << 20

// readMember reads the content of an archive member of size bytes (its
// header's size, which the caller has checked against the document
// bound) from r into buf, which it grows to exactly size when it is
// short: one allocation of what the member needs, not the up to twice as
// much of a growing buffer while it copies. A member shorter than its
// header says is an error (a truncated archive); so an archive can make
// the reader allocate at most the document bound at once, as an honest
// member of that size would.
func readMember(buf []byte, r io.Reader, size int64) ([]byte, error) {
	if int64(cap(buf)) < size {
		buf = nil // the old buffer is garbage before the new one is made
		buf = make([]byte, size)
	}
	buf = buf[:size]
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return buf[:0], err
	}
	return buf, nil
}

// room calls opts.Room, when set, with size.
func (o *Options) room(size int64) error {
	if o.Room == nil {
		return nil
	}
	return o.Room(size)
}

// scanTar reads the members of the tar stream r (see eachMember), the
// content of the stored files too. progress, when set, is called after
// each member. st, when set, receives each decoded document that may be in
// the result.
func scanTar(src string, r io.Reader, opts *Options, progress func(bool), st *docStream) ([]tarEntry, error) {
	var ents []tarEntry
	buf := make([]byte, 0, 256<<10)
	max := opts.maxDoc()
	err := eachMember(src, r, opts, true, func(tr *tar.Reader, m tarMember) error {
		e := tarEntry{name: m.name, dir: m.dir}
		if !m.dir && m.store {
			hdr := m.hdr
			if hdr.Size > int64(max) {
				return tooLarge(src+": "+m.name, max)
			}
			if hdr.Size > 0 && hdr.Size <= 64<<20 && int64(cap(buf)) < hdr.Size {
				buf = make([]byte, 0, hdr.Size)
			}
			var err error
			buf, err = readAll(buf[:0], tr)
			if err != nil {
				return corrupt(src, err)
			}
			e.stored = true
			if hasNUL(buf) {
				e.nul = true
			} else {
				e.text = Decode(buf)
				if st != nil && st.wants(m.name) {
					e.text, e.seq = st.send(e.text, opts)
					e.emitted = true
					if st.drop {
						e.text = ""
					}
				}
			}
		}
		ents = append(ents, e)
		if progress != nil {
			progress(false)
		}
		return nil
	})
	return ents, err
}

// tarLister lists the folders of an archive from its members; folders
// without a member of their own are implied by the paths below them.
type tarLister map[string]*tarFolder

type tarFolder struct {
	dirs  map[string]bool
	files []string
}

func newTarLister(ents []tarEntry) tarLister {
	t := tarLister{"": {dirs: map[string]bool{}}}
	for _, e := range ents {
		t.add(e.name, e.dir)
	}
	return t
}

// add lists the member name, a folder when dir is set.
func (t tarLister) add(name string, dir bool) {
	if dir {
		t.folder(name)
		return
	}
	parent, base := path.Split(name)
	f := t.folder(strings.TrimSuffix(parent, "/"))
	f.files = append(f.files, base)
}

// folder returns the folder p, adding it and its parents as needed.
func (t tarLister) folder(p string) *tarFolder {
	if f, ok := t[p]; ok {
		return f
	}
	f := &tarFolder{dirs: map[string]bool{}}
	t[p] = f
	parent, base := path.Split(p)
	t.folder(strings.TrimSuffix(parent, "/")).dirs[base] = true
	return f
}

func (t tarLister) list(rel string) (dirs, files []string, err error) {
	f, ok := t[rel]
	if !ok {
		return nil, nil, nil
	}
	for d := range f.dirs {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	files = append(files, f.files...)
	sort.Strings(files)
	// A name listed twice (appended archives) counts once; the last
	// member wins when read.
	files = compactSorted(files)
	// A name both a file and a folder is taken as the folder.
	var only []string
	for _, fn := range files {
		if !f.dirs[fn] {
			only = append(only, fn)
		}
	}
	return dirs, only, nil
}

// compactSorted drops repeated names from a sorted list.
func compactSorted(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// readTar reads a labelled tree from the (decompressed) tar stream r;
// progress, when set, is called after each member and at the end. With st
// set it emits the documents as they are decoded, stripped as opts.Remove
// says, and returns for each document its number in the stream.
func readTar(src string, r io.Reader, opts *Options, progress func(final bool), st *docStream) ([]Document, []int, error) {
	ents, err := scanTar(src, r, opts, progress, st)
	if err != nil {
		return nil, nil, err
	}
	if progress != nil {
		progress(true)
	}
	if len(ents) == 0 {
		return nil, nil, fmt.Errorf("%s: empty archive", src)
	}
	y, err := planTree(src, "archive", newTarLister(ents), opts)
	if err != nil {
		return nil, nil, err
	}
	last := make(map[string]int, len(ents))
	for i, e := range ents {
		if !e.dir {
			last[e.name] = i
		}
	}
	var docs []Document
	var seqs []int
	for i := range y.labels {
		l := &y.labels[i]
		for _, f := range l.files {
			rel := y.rel(l, f)
			e := &ents[last[rel]]
			switch {
			case !e.stored:
				return nil, nil, fmt.Errorf("%s: internal error: %s was not read", src, rel)
			case e.nul:
				opts.warn("%s: skipping document %s: contains NUL bytes", src, rel)
				continue
			}
			if st != nil {
				if !e.emitted { // not expected (see docStream.wants), but then late
					e.text, e.seq = st.send(e.text, opts)
					e.emitted = true
					if st.drop {
						e.text = ""
					}
				}
				seqs = append(seqs, e.seq)
			}
			docs = append(docs, Document{ID: rel, Label: l.name, Text: e.text})
		}
	}
	return docs, seqs, nil
}

// countingReader counts the bytes read through it; the count may be read
// from another goroutine.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// asyncReader reads r ahead on its own goroutine into a ring of buffers, so
// decompression overlaps with whatever consumes the stream.
type asyncReader struct {
	full chan []byte
	free chan []byte
	stop chan struct{}
	done chan struct{} // closed when the producer has returned
	err  error         // the producer's error; read only after full is closed
	cur  []byte        // unread part of held
	held []byte        // the buffer being consumed
	once bool
}

func newAsyncReader(r io.Reader, size, n int) *asyncReader {
	a := &asyncReader{
		full: make(chan []byte, n),
		free: make(chan []byte, n),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	for range n {
		a.free <- make([]byte, size)
	}
	go a.run(r)
	return a
}

func (a *asyncReader) run(r io.Reader) {
	defer close(a.done)
	defer close(a.full)
	for {
		var b []byte
		select {
		case b = <-a.free:
		case <-a.stop:
			return
		}
		n := 0
		var err error
		for n < len(b) && err == nil {
			var m int
			m, err = r.Read(b[n:])
			n += m
		}
		if n > 0 {
			select {
			case a.full <- b[:n]:
			case <-a.stop:
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				a.err = err
			}
			return
		}
	}
}

func (a *asyncReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.held != nil {
			a.free <- a.held[:cap(a.held)]
			a.held = nil
		}
		b, ok := <-a.full
		if !ok {
			if a.err != nil {
				return 0, a.err
			}
			return 0, io.EOF
		}
		a.held, a.cur = b, b
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// Close stops the producer and waits for it to return. It may be called
// more than once.
func (a *asyncReader) Close() {
	if a.once {
		return
	}
	a.once = true
	close(a.stop)
	<-a.done
}
