package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// readStream runs ReadStream and returns what it emitted with its result.
func readStream(t *testing.T, path string, opts Options) (*Corpus, []int, []string) {
	t.Helper()
	var emitted []string
	c, seq, err := ReadStream(path, opts, func(text string) { emitted = append(emitted, text) })
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c, seq, emitted
}

// sameError reports whether err and Read's error want are both nil; it
// fails the test when they differ.
func sameError(t *testing.T, what string, err, want error) bool {
	t.Helper()
	if (want == nil) != (err == nil) || want != nil && want.Error() != err.Error() {
		t.Errorf("%s: error %v, Read's %v", what, err, want)
	}
	return want == nil && err == nil
}

// TestReadStream checks that ReadStream returns what Read returns, and that
// seq finds each document's text among the emitted ones, for every kind of
// source and the options that drop or change documents.
func TestReadStream(t *testing.T) {
	dir := t.TempDir()
	tree := treeMembers(t, "testdata/tree", "")
	// Out of order, with a member replaced later, a stray file, a NUL file
	// and a folder inside a label folder.
	messy := []member{
		{"b/9", "nine"}, {"a/2", "old two"}, {"a/1", "one\n\n> quoted\nkept"}, {"stray", "not a document"},
		{"a/3", "bin\x00ary"}, {"b/sub/4", "nested"}, {"a/2", "From: x\n\nnew two"},
	}
	sources := map[string]string{
		"folder":  "testdata/tree",
		"archive": writeTar(t, dir, "tree.tgz", tree),
		"tar":     writeTar(t, dir, "tree.tar", tree),
		"messy":   writeTar(t, dir, "messy.tgz", messy),
		"bydate":  writeTar(t, dir, "bydate.tgz", treeMembers(t, "testdata/bydate", "")),
		"tsv":     "testdata/docs.tsv",
		"jsonl":   "testdata/docs.jsonl",
	}
	optsets := map[string]Options{
		"plain":   {},
		"remove":  {Remove: RemoveHeaders | RemoveFooters | RemoveQuotes},
		"classes": {Classes: []string{"spam"}},
		"train":   {Split: "train"},
		"test":    {Split: "test", Classes: []string{"b"}},
	}
	ok := 0
	for sname, path := range sources {
		for oname, opts := range optsets {
			var warnRead, warnStream collect
			opts.Warn = warnRead.warn
			want, werr := Read(path, opts)
			opts.Warn = warnStream.warn
			var emitted []string
			got, seq, gerr := ReadStream(path, opts, func(text string) { emitted = append(emitted, text) })
			if !sameError(t, sname+" "+oname, gerr, werr) {
				continue
			}
			ok++
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: corpus differs from Read's", sname, oname)
			}
			if !reflect.DeepEqual(warnStream, warnRead) {
				t.Errorf("%s %s: warnings %q, Read's %q", sname, oname, warnStream, warnRead)
			}
			if len(seq) != len(got.Docs) {
				t.Fatalf("%s %s: %d numbers for %d documents", sname, oname, len(seq), len(got.Docs))
			}
			used := map[int]bool{}
			for i, q := range seq {
				if q < 0 || q >= len(emitted) || used[q] {
					t.Fatalf("%s %s: seq %v over %d emitted texts", sname, oname, seq, len(emitted))
				}
				used[q] = true
				if emitted[q] != got.Docs[i].Text {
					t.Errorf("%s %s: document %s: emitted text %q, want %q", sname, oname, got.Docs[i].ID, emitted[q], got.Docs[i].Text)
				}
			}
			checkDropTexts(t, sname+" "+oname, path, opts, got, seq, emitted)
		}
	}
	if ok < 14 {
		t.Errorf("only %d of the source and option pairs could be read", ok)
	}
}

// checkDropTexts checks that ReadStream with DropTexts emits the texts and
// numbers the documents as it does without (emitted, seq), and returns
// the corpus want with every text empty.
func checkDropTexts(t *testing.T, what, path string, opts Options, want *Corpus, seq []int, emitted []string) {
	t.Helper()
	opts.DropTexts = true
	got, gseq, gemitted := readStream(t, path, opts)
	if !reflect.DeepEqual(gemitted, emitted) || !reflect.DeepEqual(gseq, seq) {
		t.Errorf("%s, DropTexts: emitted %q, seq %v; want %q, %v", what, gemitted, gseq, emitted, seq)
	}
	w := *want
	w.Docs = slices.Clone(want.Docs)
	for i := range w.Docs {
		w.Docs[i].Text = ""
	}
	if !reflect.DeepEqual(got, &w) {
		t.Errorf("%s, DropTexts: corpus differs from Read's with empty texts", what)
	}
}

// TestReadStreamArchiveOrder: an archive is emitted in member order, with
// only the files that can be documents of the kept classes, and the
// replaced copy of a member is emitted but not used.
func TestReadStreamArchiveOrder(t *testing.T) {
	p := writeTar(t, t.TempDir(), "x.tgz", []member{{"b/2", "b two"}, {"a/1", "a one"}, {"c/3", "c three"}, {"b/2", "b new"}})
	c, seq, emitted := readStream(t, p, Options{})
	if !reflect.DeepEqual(emitted, []string{"b two", "a one", "c three", "b new"}) {
		t.Errorf("emitted %q", emitted)
	}
	if !reflect.DeepEqual(ids(c), []string{"a/1", "b/2", "c/3"}) || !reflect.DeepEqual(seq, []int{1, 3, 2}) {
		t.Errorf("documents %q, seq %v", ids(c), seq)
	}
	c, seq, emitted = readStream(t, p, Options{Classes: []string{"c", "a"}})
	if !reflect.DeepEqual(emitted, []string{"a one", "c three"}) || !reflect.DeepEqual(seq, []int{0, 1}) || len(c.Docs) != 2 {
		t.Errorf("classes a, c: emitted %q, seq %v", emitted, seq)
	}
}

// TestReadStreamRealCorpus compares ReadStream with Read on the 20
// Newsgroups archive.
func TestReadStreamRealCorpus(t *testing.T) {
	path := realCorpus(t)
	for _, opts := range []Options{{Split: "train"}, {Split: "test", Remove: RemoveHeaders | RemoveQuotes, Classes: []string{"sci.crypt", "comp.graphics"}}} {
		want, err := Read(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		c, seq, emitted := readStream(t, path, opts)
		if !reflect.DeepEqual(c, want) {
			t.Fatalf("%+v: corpus differs from Read's", opts)
		}
		for i, q := range seq {
			if emitted[q] != c.Docs[i].Text {
				t.Fatalf("%+v: document %s: emitted text differs", opts, c.Docs[i].ID)
			}
		}
		if len(opts.Classes) > 0 && len(emitted) != len(c.Docs) {
			t.Errorf("%+v: emitted %d texts for %d documents", opts, len(emitted), len(c.Docs))
		}
	}
}

// streamAll runs Stream (StreamFrom when r is set) and returns the
// documents it gave, the warnings and the error.
func streamAll(path string, r io.Reader, opts Options) ([]Document, collect, error) {
	var docs []Document
	var warns collect
	opts.Warn = warns.warn
	fn := func(d Document) error {
		if opts.Transient { // the strings are the stream's: keep copies
			d.ID, d.Label, d.Text = strings.Clone(d.ID), strings.Clone(d.Label), strings.Clone(d.Text)
			if d.Labels != nil {
				d.Labels = slices.Clone(d.Labels)
				for i, l := range d.Labels {
					d.Labels[i] = strings.Clone(l)
				}
			}
		}
		docs = append(docs, d)
		return nil
	}
	var err error
	if r != nil {
		err = StreamFrom(r, path, opts, fn)
	} else {
		err = Stream(path, opts, fn)
	}
	return docs, warns, err
}

// TestStreamMatchesRead: Stream gives the documents Read returns, in
// Read's order for folders, record files and sorted archives, with Read's
// warnings and errors, for every kind of source and the options that drop
// or change documents.
func TestStreamMatchesRead(t *testing.T) {
	dir := t.TempDir()
	tree := treeMembers(t, "testdata/tree", "")
	tsv, err := os.ReadFile("testdata/docs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sources := map[string]string{
		"folder":   "testdata/tree",
		"bydate":   "testdata/bydate",
		"archive":  writeTar(t, dir, "tree.tgz", tree),
		"tar":      writeTar(t, dir, "tree.tar", tree),
		"wrapped":  writeTar(t, dir, "wrapped.tgz", treeMembers(t, "testdata/bydate", "corpus/")),
		"tsv":      "testdata/docs.tsv",
		"tsv.gz":   write("docs.tsv.gz", string(gzipBytes(t, tsv))),
		"jsonl":    "testdata/docs.jsonl",
		"csv":      write("docs.csv", "text,label\n\"a, b\",ham\n\"multi\nline\",spam\nlast,ham\n"),
		"fasttext": write("docs.txt", "__label__ham hello there\n__label__spam __label__ham buy now\n__label__spam win\n"),
		"nul":      writeTree(t, map[string]string{"a/1": "one", "a/2": "t\x00wo", "b/3": "three", "stray": "x", "b/sub/4": "four"}),
	}
	optsets := map[string]Options{
		"plain":   {},
		"remove":  {Remove: RemoveHeaders | RemoveFooters | RemoveQuotes},
		"classes": {Classes: []string{"spam"}},
		"unknown": {Classes: []string{"spam", "nope"}},
		"train":   {Split: "train"},
		"test":    {Split: "test", Classes: []string{"ham"}},
		"multi":   {MultiLabel: true, Classes: []string{"ham"}},
		"small":   {MaxDocBytes: 12},
	}
	ok := 0
	for sname, path := range sources {
		for oname, opts := range optsets {
			for _, transient := range []bool{false, true} {
				var warnRead collect
				opts.Warn = warnRead.warn
				want, werr := Read(path, opts)
				opts.Transient = transient
				name := fmt.Sprintf("%s %s transient=%v", sname, oname, transient)
				got, warnStream, gerr := streamAll(path, nil, opts)
				if !sameError(t, name, gerr, werr) {
					continue
				}
				ok++
				if !reflect.DeepEqual(got, want.Docs) {
					t.Errorf("%s: documents\n%+v\nRead's\n%+v", name, got, want.Docs)
				}
				if !reflect.DeepEqual(warnStream, warnRead) {
					t.Errorf("%s: warnings %q, Read's %q", name, warnStream, warnRead)
				}
			}
		}
	}
	if ok < 50 {
		t.Errorf("only %d of the source and option pairs could be read", ok)
	}
}

// gzipBytes gzips b.
func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestStreamArchiveOrder: an archive streams in member order (Read sorts),
// a member named twice counts once, where its last copy is, and a file
// named like a folder, a NUL file and files outside label folders are left
// out as Read leaves them out.
func TestStreamArchiveOrder(t *testing.T) {
	members := []member{
		{"b/9", "nine"}, {"a/2", "old two"}, {"a/1", "one"}, {"stray", "not a document"},
		{"a/3", "bin\x00ary"}, {"b/sub", "file"}, {"b/sub/4", "nested"}, {"a/2", "new two"}, {"c/5", "five"}, {"a/2", "newest two"},
	}
	p := writeTar(t, t.TempDir(), "messy.tgz", members)
	got, warns, err := streamAll(p, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, d := range got {
		order = append(order, d.ID+"="+d.Text)
	}
	if want := []string{"b/9=nine", "a/1=one", "c/5=five", "a/2=newest two"}; !reflect.DeepEqual(order, want) {
		t.Errorf("documents %q, want %q", order, want)
	}
	var rwarns collect
	c, err := Read(p, Options{Warn: rwarns.warn})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != len(got) || !reflect.DeepEqual(warns, rwarns) {
		t.Errorf("Read: %d documents, warnings %q; Stream: %d, %q", len(c.Docs), rwarns, len(got), warns)
	}
}

// TestStreamFrom: a stream is read in the format its first bytes show, an
// archive on it too (spooled for its two passes), as ReadFrom reads it.
func TestStreamFrom(t *testing.T) {
	streams := map[string][]byte{
		"tgz":   tarBytes(t, treeMembers(t, "testdata/bydate", ""), true),
		"tar":   tarBytes(t, treeMembers(t, "testdata/tree", ""), false),
		"jsonl": []byte("{\"label\":\"a\",\"text\":\"x\"}\n{\"label\":\"b\",\"text\":\"y\"}\n"),
		"tsv":   []byte("a\tone\nb\ttwo\n"),
	}
	for name, b := range streams {
		opts := Options{}
		if name == "tgz" {
			opts.Split = "train"
		}
		want, err := ReadFrom(bytes.NewReader(b), "stdin", opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, _, err := streamAll("stdin", bytes.NewReader(b), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want.Docs) {
			t.Errorf("%s: documents %+v, ReadFrom's %+v", name, got, want.Docs)
		}
	}
}

// TestStreamStops: the first error fn returns ends the stream and comes
// back as is, for each kind of source.
func TestStreamStops(t *testing.T) {
	stop := errors.New("stop")
	dir := t.TempDir()
	for _, p := range []string{"testdata/tree", "testdata/docs.tsv", writeTar(t, dir, "t.tgz", treeMembers(t, "testdata/tree", ""))} {
		n := 0
		err := Stream(p, Options{}, func(Document) error {
			n++
			return stop
		})
		if err != stop || n != 1 {
			t.Errorf("%s: %d calls, error %v", p, n, err)
		}
	}
}

// TestRealCorpusStream: the 20 Newsgroups archive streams the documents
// Read returns, in Read's order (the archive is sorted).
func TestRealCorpusStream(t *testing.T) {
	path := realCorpus(t)
	opts := Options{Split: "test", Remove: RemoveHeaders, Classes: []string{"sci.crypt", "comp.graphics"}}
	want, err := Read(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := streamAll(path, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want.Docs) {
		t.Errorf("streamed %d documents, differing from Read's %d", len(got), len(want.Docs))
	}
}

// TestStreamTransient: with Options.Transient, a TSV, fastText or JSONL
// stream allocates nothing per line (its documents' strings share its buffers),
// and without it, it does.
func TestStreamTransient(t *testing.T) {
	dir := t.TempDir()
	var tsv, ft, jl strings.Builder
	const lines = 2000
	for i := range lines {
		fmt.Fprintf(&tsv, "class%d\tthe text of document %d, long enough to be a document\n", i%7, i)
		fmt.Fprintf(&ft, "__label__c%d the text of document %d\n", i%7, i)
		fmt.Fprintf(&jl, "{\"label\": \"c%d\", \"text\": \"the \\\"text\\\" of document %d\", \"id\": %d}\n", i%7, i, i)
	}
	for name, body := range map[string]string{"docs.tsv": tsv.String(), "docs.txt": ft.String(), "docs.jsonl": jl.String()} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, transient := range []bool{false, true} {
			n := 0
			allocs := testing.AllocsPerRun(1, func() {
				n = 0
				err := Stream(path, Options{Transient: transient}, func(d Document) error {
					n++
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
			if n != lines {
				t.Fatalf("%s: %d documents, want %d", name, n, lines)
			}
			if perLine := allocs / lines; transient != (perLine < 0.1) {
				t.Errorf("%s transient=%v: %.2f allocations a line", name, transient, perLine)
			}
		}
	}
}
