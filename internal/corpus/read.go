package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Read reads a labelled corpus from path: a folder tree ROOT/<label>/<doc>
// (or a bydate tree ROOT/<split>/<label>/<doc>, where opts.Split picks the
// split), a tar archive of such a tree (streamed, never unpacked), or a
// file of records: TSV, CSV, JSONL or fastText lines. Archives and record
// files may be compressed with gzip, zstd or bzip2, found by their magic
// bytes. The format follows opts.Format when forced, else the name, else
// the first bytes (see the package documentation); "-" reads standard
// input as ReadFrom does. A path that is neither a folder nor a regular
// file (a device, a FIFO) is refused.
//
// Documents come in a deterministic order: trees by label, then by file
// name (byte order), whatever the file system or archive order; record
// formats in record order. Texts are decoded (UTF-8 when valid, else
// latin-1) and stripped as opts.Remove says. Every failure is an error
// naming the path (and line for record formats); a document file with NUL
// bytes is skipped with one warning through opts.Warn.
func Read(path string, opts Options) (*Corpus, error) {
	if path == "-" {
		c, err := ReadFrom(os.Stdin, "stdin", opts)
		if c != nil {
			c.Source = "-"
		}
		return c, err
	}
	docs, _, format, err := readPath(path, &opts, nil)
	if err != nil {
		return nil, err
	}
	return finish(path, docs, format, &opts, false)
}

// ReadStream is Read for a consumer that works while the source is read,
// such as vectorize.FitStream: it calls emit with the text of each
// document as soon as it is decoded (and stripped as opts.Remove says),
// from the calling goroutine, so that decompressing and tokenizing
// overlap. The calls are numbered 0, 1, 2, … in the order of the source
// (for an archive, the order of its members, not Read's order), and some
// texts emitted may not make it into the result (a member replaced by a
// later one of the same name, a file outside the label folders). It
// returns the corpus exactly as Read does, and seq: c.Docs[i].Text is the
// text of emit call number seq[i].
//
// Archives are streamed this way. Other sources (folders, record files,
// standard input) are read whole first, then emitted in order (seq[i] = i).
// On error, the texts emitted so far mean nothing. With opts.DropTexts the
// documents of c have empty texts: seq still says which emitted text
// each one was.
func ReadStream(path string, opts Options, emit func(text string)) (c *Corpus, seq []int, err error) {
	if path == "-" {
		c, err = Read(path, opts)
		if err != nil {
			return nil, nil, err
		}
		return c, EmitAll(c, emit, opts.DropTexts), nil
	}
	st := &docStream{emit: emit, drop: opts.DropTexts}
	if len(opts.Classes) > 0 {
		st.classes = make(map[string]bool, len(opts.Classes))
		for _, l := range opts.Classes {
			st.classes[l] = true
		}
	}
	docs, seq, format, err := readPath(path, &opts, st)
	if err != nil {
		return nil, nil, err
	}
	if format == FormatTar {
		if c, err = finish(path, docs, format, &opts, true); err != nil {
			return nil, nil, err
		}
		return c, seq, nil
	}
	if c, err = finish(path, docs, format, &opts, false); err != nil {
		return nil, nil, err
	}
	return c, EmitAll(c, emit, opts.DropTexts), nil
}

// EmitAll calls emit with each text of c in order and returns the identity
// numbering, ReadStream's seq for a corpus read whole; with drop it empties
// each text once emitted (Options.DropTexts).
func EmitAll(c *Corpus, emit func(string), drop bool) []int {
	seq := make([]int, len(c.Docs))
	for i := range c.Docs {
		emit(c.Docs[i].Text)
		if drop {
			c.Docs[i].Text = ""
		}
		seq[i] = i
	}
	return seq
}

// ReadFrom reads a labelled corpus from the stream r, named name in
// document IDs and messages ("stdin" for standard input). The format is
// opts.Format when forced, else found from the first bytes (a tar stream,
// JSONL, fastText, TSV or CSV), TSV when they tell nothing. A compressed
// stream (gzip, zstd, bzip2) is decompressed.
func ReadFrom(r io.Reader, name string, opts Options) (*Corpus, error) {
	format, err := streamFormat(name, opts.Format)
	if err != nil {
		return nil, err
	}
	docs, _, format, err := readSource(name, r, 0, format, true, &opts, nil)
	if err != nil {
		return nil, err
	}
	return finish(name, docs, format, &opts, false)
}

// readPath reads the documents at path (not "-") and returns them with the
// format it found; see readTar for st and the numbering it returns.
func readPath(path string, opts *Options, st *docStream) ([]Document, []int, string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, "", pathError(path, err)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, nil, "", fmt.Errorf("%s: not a regular file (a device, FIFO or socket): pass - to read standard input", path)
	}
	format, err := sourceFormat(path, fi.IsDir(), opts.Format)
	if err != nil {
		return nil, nil, "", err
	}
	if format == FormatDir {
		docs, err := readDirTree(path, opts)
		return docs, nil, format, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, "", pathError(path, err)
	}
	defer f.Close()
	return readSource(path, f, fi.Size(), format, isTxtName(path), opts, st)
}

// readSource reads the documents of the stream r named src, size bytes
// long when known (else 0), decompressing it as its magic bytes say. An
// empty format is found from the first bytes, TSV when they tell nothing
// and fallbackTSV is set, else an error.
func readSource(src string, r io.Reader, size int64, format string, fallbackTSV bool, opts *Options, st *docStream) ([]Document, []int, string, error) {
	o, err := openFormat(src, r, size, format, fallbackTSV, opts)
	if err != nil {
		return nil, nil, "", err
	}
	defer o.stop()
	if o.format == FormatTar {
		docs, seqs, err := readTar(src, o.r, opts, o.progress, st)
		return docs, seqs, o.format, err
	}
	var docs []Document
	err = scanRecords(src, o.format, o.r.(*bufio.Reader), opts, o.progress, func(d Document) error {
		docs = append(docs, d)
		return nil
	})
	return docs, nil, o.format, err
}

// opened is a source stream decompressed and with its format known.
type opened struct {
	r        io.Reader // the content: a *bufio.Reader past any BOM for record formats
	format   string
	codec    string // the compression of the stream
	stop     func()
	progress func(final bool) // nil unless opts.Progress is set
}

// openFormat decompresses the stream r named src (size bytes when known,
// else 0) and finds its format as readSource says; opts.Split is an error
// for a record format. The caller calls stop once done with the stream.
func openFormat(src string, r io.Reader, size int64, format string, fallbackTSV bool, opts *Options) (*opened, error) {
	s, stop, codec, progress, err := openSource(src, r, size, opts)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*opened, error) {
		stop()
		return nil, err
	}
	if err := checkCodec(src, nameCodec(src), codec); err != nil {
		return fail(err)
	}
	var br *bufio.Reader // for sniffing and line formats; a tar named so reads s directly
	if format != FormatTar {
		br = asBuffered(s)
		s = br
	}
	if format == "" {
		head, peekErr := br.Peek(sniffLen)
		format = sniffFormat(bytes.TrimPrefix(head, []byte(utf8BOM)), opts.prefix())
		switch {
		case format != "":
		case peekErr != nil && peekErr != io.EOF && !errors.Is(peekErr, bufio.ErrBufferFull):
			// A damaged compressed stream, not an unknown format.
			return fail(fmt.Errorf("%s: %w", src, peekErr))
		case fallbackTSV:
			format = FormatTSV
		case hasNUL(head):
			return fail(fmt.Errorf("%s: binary data, not a corpus (want a folder, a tar archive or TSV, CSV, JSONL or fastText lines)", src))
		default:
			return fail(fmt.Errorf("%s: cannot tell the format from the name or the first line (want a folder, a tar archive, .tsv, .csv, .jsonl or fastText lines); pass --input-format", src))
		}
	}
	if format != FormatTar {
		if opts.Split != "" {
			return fail(fmt.Errorf("%s: --split applies to folder trees and archives, not to %s", src, format))
		}
		skipBOM(br)
	}
	return &opened{r: s, format: format, codec: codec, stop: stop, progress: progress}, nil
}

// openSource decompresses the stream r named src (see decompress) and
// returns, when opts.Progress is set, the progress function of the
// readers: it reports the bytes read from r against size (0 when unknown),
// and with final set the end.
func openSource(src string, r io.Reader, size int64, opts *Options) (s io.Reader, stop func(), codec string, progress func(final bool), err error) {
	var cr *countingReader
	if opts.Progress != nil {
		cr = &countingReader{r: r}
		r = cr
		progress = func(final bool) {
			n := int(cr.n.Load())
			if final {
				if size > 0 {
					n = int(size)
				}
				opts.Progress(n, n)
				return
			}
			opts.Progress(n, int(size))
		}
	}
	s, stop, codec, err = decompress(src, r)
	return s, stop, codec, progress, err
}

// nameCodec returns the compression a file name announces.
func nameCodec(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".gz"), strings.HasSuffix(n, ".tgz"):
		return codecGzip
	case strings.HasSuffix(n, ".zst"), strings.HasSuffix(n, ".zstd"):
		return codecZstd
	case strings.HasSuffix(n, ".bz2"), strings.HasSuffix(n, ".tbz2"):
		return codecBzip2
	}
	return codecNone
}

// checkCodec returns an error when the stream src was announced by its
// name as compressed with want (not codecNone) but is not: codec is what
// its magic bytes say.
func checkCodec(src, want, codec string) error {
	if want != codecNone && codec != want {
		return fmt.Errorf("%s: not a %s file", src, want)
	}
	return nil
}

// finish applies the class filter (line formats; trees filter while
// planning) and opts.Remove unless the texts are stripped already, and
// builds the Corpus.
func finish(src string, docs []Document, format string, opts *Options, stripped bool) (*Corpus, error) {
	if len(opts.Classes) > 0 && isLineFormat(format) {
		keep, err := selectClasses(src, distinctLabels(docs), opts.Classes)
		if err != nil {
			return nil, err
		}
		kept := docs[:0]
		for _, d := range docs {
			if keepClasses(&d, keep) {
				kept = append(kept, d)
			}
		}
		docs = kept
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: no documents", src)
	}
	if opts.Remove != 0 && !stripped {
		parallel(len(docs), func(i int) { docs[i].Text = Strip(docs[i].Text, opts.Remove) })
	}
	return &Corpus{Source: src, Docs: docs, Labels: distinctLabels(docs)}, nil
}

// distinctLabels returns the labels of docs, sorted, each once.
func distinctLabels(docs []Document) []string {
	seen := map[string]bool{}
	var labels []string
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			labels = append(labels, l)
		}
	}
	for _, d := range docs {
		add(d.Label)
		for _, l := range d.Labels {
			add(l)
		}
	}
	sort.Strings(labels)
	return labels
}

// parallel calls fn(i) for every i in [0, n), spread over the cores in
// contiguous blocks.
func parallel(n int, fn func(i int)) {
	w := runtime.GOMAXPROCS(0)
	if w > n {
		w = n
	}
	if w <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := k*n/w, (k+1)*n/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
