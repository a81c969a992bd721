package corpus

import (
	"reflect"
	"testing"
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
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Errorf("%s %s: error %v, Read's %v", sname, oname, gerr, werr)
				continue
			}
			if werr != nil {
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
		}
	}
	if ok < 14 {
		t.Errorf("only %d of the source and option pairs could be read", ok)
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
