package corpus

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Formats Read and Walk accept in Options.Format; "" means FormatAuto.
const (
	FormatAuto  = "auto"
	FormatDir   = "dir"
	FormatTar   = "tar"
	FormatTSV   = "tsv"
	FormatJSONL = "jsonl"
)

// formatByName returns the format a file name implies, or "".
func formatByName(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"), strings.HasSuffix(n, ".tar"):
		return FormatTar
	case strings.HasSuffix(n, ".tsv"), strings.HasSuffix(n, ".txt"):
		return FormatTSV
	case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".ndjson"):
		return FormatJSONL
	}
	return ""
}

// checkFormat validates a forced format.
func checkFormat(f string) error {
	switch f {
	case "", FormatAuto, FormatDir, FormatTar, FormatTSV, FormatJSONL:
		return nil
	}
	return fmt.Errorf("unknown input format %q (want auto, dir, tar, tsv or jsonl)", f)
}

// sourceFormat decides the format of the source at p: opts.Format when
// forced, else a folder is "dir" and a file goes by its extension.
func sourceFormat(p string, isDir bool, forced string) (string, error) {
	if err := checkFormat(forced); err != nil {
		return "", err
	}
	switch {
	case forced == FormatDir && !isDir:
		return "", fmt.Errorf("%s: not a folder (input format dir)", p)
	case forced != "" && forced != FormatAuto && forced != FormatDir && isDir:
		return "", fmt.Errorf("%s: is a folder, not a %s file", p, forced)
	case forced != "" && forced != FormatAuto:
		return forced, nil
	case isDir:
		return FormatDir, nil
	}
	if f := formatByName(p); f != "" {
		return f, nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the name (want a folder, .tar.gz, .tgz, .tar, .tsv, .txt, .jsonl or .ndjson); pass --input-format", p)
}

// Read reads a labelled corpus from path: a folder tree ROOT/<label>/<doc>
// (or a bydate tree ROOT/<split>/<label>/<doc>, where opts.Split picks the
// split), a .tar.gz, .tgz or .tar archive of such a tree (streamed, never
// unpacked), a TSV file (label<TAB>text per line) or a JSONL file
// ({"label": ..., "text": ...} per line). The format follows the name unless
// opts.Format forces one; "-" reads standard input as ReadFrom does.
//
// Documents come in a deterministic order: trees by label, then by file
// name (byte order), whatever the file system or archive order; line
// formats in line order. Texts are decoded (UTF-8 when valid, else latin-1)
// and stripped as opts.Remove says. Every failure is an error naming the
// path (and line for TSV and JSONL); a document file with NUL bytes is
// skipped with one warning through opts.Warn.
func Read(path string, opts Options) (*Corpus, error) {
	if path == "-" {
		c, err := ReadFrom(os.Stdin, "stdin", opts)
		if c != nil {
			c.Source = "-"
		}
		return c, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, pathError(path, err)
	}
	format, err := sourceFormat(path, fi.IsDir(), opts.Format)
	if err != nil {
		return nil, err
	}
	var docs []Document
	switch format {
	case FormatDir:
		docs, err = readDirTree(path, &opts)
	case FormatTar:
		docs, _, err = readTarFile(path, fi.Size(), &opts, nil)
	default:
		docs, err = readLinesFile(path, format, fi.Size(), &opts)
	}
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
// Archives are streamed this way. Other sources (folders, TSV, JSONL,
// standard input) are read whole first, then emitted in order (seq[i] = i).
// On error, the texts emitted so far mean nothing.
func ReadStream(path string, opts Options, emit func(text string)) (c *Corpus, seq []int, err error) {
	if path != "-" {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, nil, pathError(path, err)
		}
		format, err := sourceFormat(path, fi.IsDir(), opts.Format)
		if err != nil {
			return nil, nil, err
		}
		if format == FormatTar {
			st := &docStream{emit: emit}
			if len(opts.Classes) > 0 {
				st.classes = make(map[string]bool, len(opts.Classes))
				for _, l := range opts.Classes {
					st.classes[l] = true
				}
			}
			docs, seq, err := readTarFile(path, fi.Size(), &opts, st)
			if err != nil {
				return nil, nil, err
			}
			c, err := finish(path, docs, format, &opts, true)
			if err != nil {
				return nil, nil, err
			}
			return c, seq, nil
		}
	}
	c, err = Read(path, opts)
	if err != nil {
		return nil, nil, err
	}
	seq = make([]int, len(c.Docs))
	for i, d := range c.Docs {
		emit(d.Text)
		seq[i] = i
	}
	return c, seq, nil
}

// ReadFrom reads a labelled corpus from the stream r, named name in
// document IDs and messages ("stdin" for standard input). The format is
// opts.Format: TSV by default, or "jsonl", or "tar" for a tar stream
// (gzipped or not).
func ReadFrom(r io.Reader, name string, opts Options) (*Corpus, error) {
	if err := checkFormat(opts.Format); err != nil {
		return nil, err
	}
	format := opts.Format
	if format == "" || format == FormatAuto {
		format = FormatTSV
	}
	var docs []Document
	var err error
	switch format {
	case FormatDir:
		return nil, fmt.Errorf("%s: a stream cannot be read as a folder", name)
	case FormatTar:
		docs, _, err = readTar(name, r, 0, false, &opts, nil)
	default:
		docs, err = readLines(name, format, r, 0, &opts)
	}
	if err != nil {
		return nil, err
	}
	return finish(name, docs, format, &opts, false)
}

// readTarFile reads the archive at p; see readTar for st.
func readTarFile(p string, size int64, opts *Options, st *docStream) ([]Document, []int, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, pathError(p, err)
	}
	defer f.Close()
	return readTar(p, f, size, isGzipName(p), opts, st)
}

// readLinesFile reads the TSV or JSONL file at p.
func readLinesFile(p, format string, size int64, opts *Options) ([]Document, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, pathError(p, err)
	}
	defer f.Close()
	return readLines(p, format, f, size, opts)
}

// readLines reads every document of a TSV or JSONL stream.
func readLines(src, format string, r io.Reader, size int64, opts *Options) ([]Document, error) {
	if opts.Split != "" {
		return nil, fmt.Errorf("%s: --split applies to folder trees and archives, not to %s", src, format)
	}
	var docs []Document
	err := scanLines(src, format, r, size, opts, func(d Document) error {
		docs = append(docs, d)
		return nil
	})
	return docs, err
}

// finish applies the class filter (line formats; trees filter while
// planning) and opts.Remove unless the texts are stripped already, and
// builds the Corpus.
func finish(src string, docs []Document, format string, opts *Options, stripped bool) (*Corpus, error) {
	if len(opts.Classes) > 0 && (format == FormatTSV || format == FormatJSONL) {
		keep, err := selectClasses(src, distinctLabels(docs), opts.Classes)
		if err != nil {
			return nil, err
		}
		kept := docs[:0]
		for _, d := range docs {
			if keep[d.Label] {
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
	for _, d := range docs {
		if !seen[d.Label] {
			seen[d.Label] = true
			labels = append(labels, d.Label)
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
