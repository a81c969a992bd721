package corpus

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// bydateTrainFirst lists testdata/bydate with the train folder first, as in
// the 20 Newsgroups archive.
func bydateTrainFirst(t testing.TB, prefix string) []member {
	all := treeMembers(t, "testdata/bydate", prefix)
	var train, rest []member
	for _, m := range all {
		if strings.Contains(m.name, "news-train") {
			train = append(train, m)
		} else {
			rest = append(rest, m)
		}
	}
	return append(train, rest...)
}

func TestReadSources(t *testing.T) {
	treeIDs := []string{"ham/1", "ham/2", "spam/10-latin1", "spam/11-utf8", "spam/9-crlf"}
	prefixed := func(p string, ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = p + id
		}
		return out
	}
	fixed := func(p string) func(t *testing.T) string { return func(*testing.T) string { return p } }
	tests := []struct {
		name       string
		path       func(t *testing.T) string
		opts       Options
		wantIDs    []string
		wantLabels []string
	}{
		{"folder", fixed("testdata/tree"), Options{}, treeIDs, []string{"ham", "spam"}},
		{"folder bydate train", fixed("testdata/bydate"), Options{Split: "train"},
			[]string{"news-train/ham/1", "news-train/ham/2", "news-train/spam/3"}, []string{"ham", "spam"}},
		{"folder bydate test", fixed("testdata/bydate"), Options{Split: "test"},
			[]string{"news-test/ham/4", "news-test/spam/5"}, []string{"ham", "spam"}},
		{"folder of one split", fixed("testdata/bydate/news-train"), Options{},
			[]string{"ham/1", "ham/2", "spam/3"}, []string{"ham", "spam"}},
		{"folder split named train", func(t *testing.T) string {
			return writeTree(t, map[string]string{"train/a/1": "x", "test/a/2": "y", "README": "r"})
		}, Options{Split: "train"}, []string{"train/a/1"}, []string{"a"}},
		{"folder wrapped", func(t *testing.T) string {
			return writeTree(t, map[string]string{"corpus/a/1": "x", "corpus/b/2": "y"})
		}, Options{}, []string{"corpus/a/1", "corpus/b/2"}, []string{"a", "b"}},
		{"tar.gz", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "tree.tar.gz", treeMembers(t, "testdata/tree", ""))
		}, Options{}, treeIDs, []string{"ham", "spam"}},
		{"tgz with ./ names", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "tree.TGZ", treeMembers(t, "testdata/tree", "./"))
		}, Options{}, treeIDs, []string{"ham", "spam"}},
		{"tar", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "tree.tar", treeMembers(t, "testdata/tree", ""))
		}, Options{}, treeIDs, []string{"ham", "spam"}},
		{"tar forced on gzip data", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "tree.bin", treeMembers(t, "testdata/tree", ""))
		}, Options{Format: "tar"}, treeIDs, []string{"ham", "spam"}},
		{"archive wrapped", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "c.tgz", treeMembers(t, "testdata/tree", "corpus/"))
		}, Options{}, prefixed("corpus/", treeIDs), []string{"ham", "spam"}},
		{"archive bydate train first, split train", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "b.tgz", bydateTrainFirst(t, ""))
		}, Options{Split: "train"}, []string{"news-train/ham/1", "news-train/ham/2", "news-train/spam/3"}, []string{"ham", "spam"}},
		{"archive bydate train first, split test", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "b.tgz", bydateTrainFirst(t, ""))
		}, Options{Split: "test"}, []string{"news-test/ham/4", "news-test/spam/5"}, []string{"ham", "spam"}},
		{"archive bydate test first, split train", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "b.tgz", treeMembers(t, "testdata/bydate", ""))
		}, Options{Split: "train"}, []string{"news-train/ham/1", "news-train/ham/2", "news-train/spam/3"}, []string{"ham", "spam"}},
		{"archive bydate wrapped", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "b.tgz", bydateTrainFirst(t, "20news/"))
		}, Options{Split: "test"}, []string{"20news/news-test/ham/4", "20news/news-test/spam/5"}, []string{"ham", "spam"}},
		{"archive without folder members", func(t *testing.T) string {
			return writeTar(t, t.TempDir(), "b.tgz", []member{{"x/a/1", "1"}, {"x/b/2", "2"}})
		}, Options{}, []string{"x/a/1", "x/b/2"}, []string{"a", "b"}},
		{"tsv", fixed("testdata/docs.tsv"), Options{},
			[]string{"testdata/docs.tsv:1", "testdata/docs.tsv:2", "testdata/docs.tsv:5", "testdata/docs.tsv:6"}, []string{"ham", "spam"}},
		{"jsonl", fixed("testdata/docs.jsonl"), Options{},
			[]string{"testdata/docs.jsonl:1", "testdata/docs.jsonl:2", "testdata/docs.jsonl:4"}, []string{"ham", "spam"}},
		{"tsv forced", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "docs.data")
			os.WriteFile(p, []byte("a\tx\n"), 0o644)
			return p
		}, Options{Format: "tsv"}, nil, []string{"a"}},
		{"jsonl by .ndjson", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "d.ndjson")
			os.WriteFile(p, []byte(`{"label":"a","text":"x"}`), 0o644)
			return p
		}, Options{}, nil, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.path(t)
			c, err := Read(p, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Source != p {
				t.Errorf("Source = %q, want %q", c.Source, p)
			}
			if tt.wantIDs != nil && !reflect.DeepEqual(ids(c), tt.wantIDs) {
				t.Errorf("IDs = %q\nwant %q", ids(c), tt.wantIDs)
			}
			if !reflect.DeepEqual(c.Labels, tt.wantLabels) {
				t.Errorf("Labels = %q, want %q", c.Labels, tt.wantLabels)
			}
			for _, d := range c.Docs {
				if want := strings.Split(d.ID, "/"); !strings.Contains(d.ID, ":") && d.Label != want[len(want)-2] {
					t.Errorf("%s: label %q", d.ID, d.Label)
				}
			}
		})
	}
}

func TestReadTexts(t *testing.T) {
	c, err := Read("testdata/tree", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"ham/1":          "From: alice@example.com\nSubject: lunch\n\nShall we meet at noon?\n",
		"spam/10-latin1": "Subject: café\n\nnaïve résumé \u00a0deal\n", // latin-1 bytes E9 EF A0
		"spam/11-utf8":   "Subject: utf8\n\nnaïve café\n",              // valid UTF-8 kept as is
		"spam/9-crlf":    "Subject: crlf\r\n\r\nwin a prize\r\n",       // CR kept
	}
	for _, d := range c.Docs {
		if w, ok := want[d.ID]; ok && d.Text != w {
			t.Errorf("%s: text %q, want %q", d.ID, d.Text, w)
		}
	}
	byID := func(c *Corpus) map[string]Document {
		m := map[string]Document{}
		for _, d := range c.Docs {
			m[d.ID] = d
		}
		return m
	}
	tsv, err := Read("testdata/docs.tsv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := byID(tsv)
	for id, w := range map[string]Document{
		"testdata/docs.tsv:2": {Label: "spam", Text: "win a prize\r"},
		"testdata/docs.tsv:5": {Label: "ham", Text: "tabs\tinside\ttext"},
		"testdata/docs.tsv:6": {Label: "spam", Text: "naïve latin-1 line"},
	} {
		w.ID = id
		if !reflect.DeepEqual(got[id], w) {
			t.Errorf("%s = %+v, want %+v", id, got[id], w)
		}
	}
	jl, err := Read("testdata/docs.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got = byID(jl)
	for id, w := range map[string]Document{
		"testdata/docs.jsonl:2": {Label: "spam", Text: "win\ta prize\r\n"},
		"testdata/docs.jsonl:4": {Label: "ham", Text: "café first"},
	} {
		w.ID = id
		if !reflect.DeepEqual(got[id], w) {
			t.Errorf("%s = %+v, want %+v", id, got[id], w)
		}
	}
}

func TestReadFrom(t *testing.T) {
	tests := []struct {
		name, format, input string
		want                []Document
	}{
		{"tsv by default", "", "b\tsecond\na\tfirst\n", []Document{{ID: "stdin:1", Label: "b", Text: "second"}, {ID: "stdin:2", Label: "a", Text: "first"}}},
		{"jsonl", "jsonl", "{\"label\":\"a\",\"text\":\"x\"}", []Document{{ID: "stdin:1", Label: "a", Text: "x"}}},
		{"tar", "tar", string(tarBytes(t, []member{{"b/2", "two"}, {"a/1", "one"}}, true)), []Document{{ID: "a/1", Label: "a", Text: "one"}, {ID: "b/2", Label: "b", Text: "two"}}},
		{"uncompressed tar", "tar", string(tarBytes(t, []member{{"a/1", "one"}}, false)), []Document{{ID: "a/1", Label: "a", Text: "one"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ReadFrom(strings.NewReader(tt.input), "stdin", Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Docs, tt.want) || c.Source != "stdin" {
				t.Errorf("got %+v from %q, want %+v", c.Docs, c.Source, tt.want)
			}
		})
	}
	if _, err := ReadFrom(strings.NewReader(""), "stdin", Options{Format: "dir"}); err == nil {
		t.Error("format dir on a stream: no error")
	}
}

func TestReadOrder(t *testing.T) {
	// Archive order, file system order and label names that sort
	// differently as whole paths ("a.b/" < "a/") must not matter.
	members := []member{{"b/2", "b2"}, {"a.b/1", "ab1"}, {"a/2", "a2"}, {"a/10", "a10"}, {"b/1", "b1"}}
	want := []string{"a/10", "a/2", "a.b/1", "b/1", "b/2"}
	arch := writeTar(t, t.TempDir(), "o.tgz", members)
	files := map[string]string{}
	for _, m := range members {
		files[m.name] = m.body
	}
	dir := writeTree(t, files)
	for _, p := range []string{arch, dir} {
		c, err := Read(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(c), want) {
			t.Errorf("%s: order %q, want %q", p, ids(c), want)
		}
		if !reflect.DeepEqual(c.Labels, []string{"a", "a.b", "b"}) {
			t.Errorf("%s: labels %q", p, c.Labels)
		}
		if got := c.LabelIDs(); !reflect.DeepEqual(got, []int{0, 0, 1, 2, 2}) {
			t.Errorf("%s: label ids %v", p, got)
		}
		if c.Texts()[0] != "a10" {
			t.Errorf("%s: Texts()[0] = %q", p, c.Texts()[0])
		}
	}
}

func TestReadArchiveDetails(t *testing.T) {
	// A member appended twice: the last copy wins, once.
	p := writeTar(t, t.TempDir(), "dup.tgz", []member{{"a/1", "old"}, {"a/2", "x"}, {"a/1", "new"}})
	c, err := Read(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != 2 || c.Docs[0].Text != "new" {
		t.Errorf("duplicate member: %+v", c.Docs)
	}
	// Hidden members (macOS "._x", ".DS_Store") are skipped.
	p = writeTar(t, t.TempDir(), "h.tgz", []member{{"a/1", "x"}, {"a/._1", "junk"}, {".DS_Store", "junk"}, {"._a/1", "junk"}})
	c, err = Read(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(c), []string{"a/1"}) {
		t.Errorf("hidden members: %q", ids(c))
	}
}

// TestReadSplitStopsEarly shows that reading the train half of a train-first
// archive never decompresses the test half: cutting the archive inside the
// test half breaks --split test but not --split train.
func TestReadSplitStopsEarly(t *testing.T) {
	noise := func(seed int) string { // incompressible text, so the cut lands in the test half
		var b strings.Builder
		x := uint32(seed)
		for b.Len() < 200<<10 {
			x = x*1664525 + 1013904223
			b.WriteByte('a' + byte(x>>24)%26)
		}
		return b.String()
	}
	ms := []member{{"x-train/a/1", "train a"}, {"x-train/b/2", "train b"},
		{"x-test/a/3", noise(1)}, {"x-test/b/4", noise(2)}}
	data := tarBytes(t, ms, true)
	p := filepath.Join(t.TempDir(), "cut.tar.gz")
	if err := os.WriteFile(p, data[:len(data)-100<<10], 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Read(p, Options{Split: "train"})
	if err != nil {
		t.Fatalf("split train: %v", err)
	}
	if !reflect.DeepEqual(ids(c), []string{"x-train/a/1", "x-train/b/2"}) {
		t.Errorf("split train: %q", ids(c))
	}
	if _, err := Read(p, Options{Split: "test"}); err == nil || !strings.Contains(err.Error(), "truncated archive") {
		t.Errorf("split test: err = %v, want truncated archive", err)
	}
}

func TestReadClasses(t *testing.T) {
	arch := writeTar(t, t.TempDir(), "t.tgz", treeMembers(t, "testdata/tree", ""))
	for _, p := range []string{"testdata/tree", arch, "testdata/docs.tsv", "testdata/docs.jsonl"} {
		c, err := Read(p, Options{Classes: []string{"spam"}})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(c.Labels, []string{"spam"}) || len(c.Docs) < 1 {
			t.Errorf("%s: labels %q, %d docs", p, c.Labels, len(c.Docs))
		}
		for _, d := range c.Docs {
			if d.Label != "spam" {
				t.Errorf("%s: kept %s (%s)", p, d.ID, d.Label)
			}
		}
		_, err = Read(p, Options{Classes: []string{"spam", "eggs"}})
		if want := p + `: unknown class "eggs" (available: ham, spam)`; err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", p, err, want)
		}
	}
}

func TestReadRemove(t *testing.T) {
	c, err := Read("testdata/tree", Options{Remove: RemoveHeaders | RemoveFooters | RemoveQuotes, Classes: []string{"ham"}})
	if err != nil {
		t.Fatal(err)
	}
	// ham/2 loses its header, then its footer from the "-- " line, then
	// the "writes:" and "> " lines: "Yes.\n" is left (the blank line before
	// "-- " ends the kept text).
	want := []string{"Shall we meet at noon?\n", "Yes.\n"}
	if got := c.Texts(); !reflect.DeepEqual(got, want) {
		t.Errorf("texts %q, want %q", got, want)
	}
}

func TestReadNULFile(t *testing.T) {
	files := map[string]string{"a/1": "text", "a/2": "bin\x00ary", "b/3": "more"}
	dir := writeTree(t, files)
	arch := writeTar(t, t.TempDir(), "n.tgz", []member{{"a/1", "text"}, {"a/2", "bin\x00ary"}, {"b/3", "more"}})
	for p, wantWarn := range map[string]string{
		dir:  filepath.Join(dir, "a", "2") + ": skipping document: contains NUL bytes",
		arch: arch + ": skipping document a/2: contains NUL bytes",
	} {
		var w collect
		c, err := Read(p, Options{Warn: w.warn})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(c), []string{"a/1", "b/3"}) {
			t.Errorf("%s: docs %q", p, ids(c))
		}
		if !reflect.DeepEqual([]string(w), []string{wantWarn}) {
			t.Errorf("%s: warnings %q, want [%q]", p, w, wantWarn)
		}
		// Nil Warn: skipped silently.
		if _, err := Read(p, Options{}); err != nil {
			t.Error(err)
		}
	}
	var w collect
	_, err := Read(writeTree(t, map[string]string{"a/1": "\x00"}), Options{Warn: w.warn})
	if err == nil || !strings.HasSuffix(err.Error(), ": no documents") || len(w) != 1 {
		t.Errorf("only NUL files: err = %v, warnings %q", err, w)
	}
}

func TestReadStrayWarnings(t *testing.T) {
	dir := writeTree(t, map[string]string{"a/1": "x", "README": "r", "a/sub/2": "y"})
	var w collect
	c, err := Read(dir, Options{Warn: w.warn})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(c), []string{"a/1"}) {
		t.Errorf("docs %q", ids(c))
	}
	want := []string{dir + ": ignoring folder a/sub: documents are the files directly inside a label folder",
		dir + ": ignoring README: not in a label folder"}
	if !reflect.DeepEqual([]string(w), want) {
		t.Errorf("warnings %q\nwant %q", w, want)
	}
}

func TestReadErrors(t *testing.T) {
	file := func(name, body string) func(t *testing.T) string {
		return func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	tree := func(files map[string]string) func(t *testing.T) string {
		return func(t *testing.T) string { return writeTree(t, files) }
	}
	arch := func(name string, ms []member) func(t *testing.T) string {
		return func(t *testing.T) string { return writeTar(t, t.TempDir(), name, ms) }
	}
	gz := func(mangle func([]byte) []byte) func(t *testing.T) string {
		return func(t *testing.T) string {
			data := mangle(tarBytes(t, treeMembers(t, "testdata/tree", ""), true))
			p := filepath.Join(t.TempDir(), "bad.tar.gz")
			os.WriteFile(p, data, 0o644)
			return p
		}
	}
	// {} stands for the path.
	tests := []struct {
		name string
		path func(t *testing.T) string
		opts Options
		want string
	}{
		{"missing path", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") }, Options{}, "{}: no such file or directory"},
		{"empty folder", tree(nil), Options{}, "{}: empty folder"},
		{"empty archive", arch("e.tgz", nil), Options{}, "{}: empty archive"},
		{"label folder without documents", tree(map[string]string{"a/1": "x", "b/": ""}), Options{}, "{}: label folder b has no documents"},
		{"label folder without documents in archive", arch("e.tgz", []member{{"a/1", "x"}, {"b/", ""}}), Options{}, "{}: label folder b has no documents"},
		{"no label folders", tree(map[string]string{"x.txt": "x"}), Options{}, "{}: no label folders (want <label>/<doc>)"},
		{"unreadable file", func(t *testing.T) string {
			d := writeTree(t, map[string]string{"a/1": "x"})
			if err := os.Symlink("missing", filepath.Join(d, "a", "2")); err != nil {
				t.Skip("no symlinks:", err)
			}
			return d
		}, Options{}, "{}/a/2: no such file or directory"},
		{"not gzip", file("bad.tar.gz", "this is not a gzip file"), Options{}, "{}: not a gzip file"},
		{"truncated archive", gz(func(b []byte) []byte { return b[:len(b)/2] }), Options{}, "{}: truncated archive: gzip stream cut short: unexpected EOF"},
		{"corrupt archive", gz(func(b []byte) []byte { b[len(b)-6] ^= 0xff; return b }), Options{}, "{}: corrupt archive: gzip: invalid checksum"},
		{"corrupt tar", file("bad.tar", strings.Repeat("garbage!", 128)), Options{}, "{}: corrupt archive: archive/tar: invalid tar header"},
		{"both splits", func(*testing.T) string { return "testdata/bydate" }, Options{},
			"{} holds both train and test folders (news-test, news-train): pass --split train or --split test"},
		{"split not there", func(*testing.T) string { return "testdata/bydate" }, Options{Split: "dev"},
			"{}: no dev folder for --split dev (want a top folder named dev or *-dev; found news-test, news-train)"},
		{"split on a plain tree", func(*testing.T) string { return "testdata/tree" }, Options{Split: "train"},
			"{}: no train folder for --split train: the folder holds no train/test folders, only ham, spam (read it as ROOT/<label>/<doc> without --split)"},
		{"two train folders", tree(map[string]string{"a-train/x/1": "1", "b-train/x/2": "2"}), Options{},
			"{}: several train folders (a-train, b-train): cannot tell which to read"},
		{"two folders match split", tree(map[string]string{"a-train/x/1": "1", "b-train/x/2": "2"}), Options{Split: "train"},
			"{}: several folders match --split train (a-train, b-train): cannot tell which to read"},
		{"unknown class", func(*testing.T) string { return "testdata/tree" }, Options{Classes: []string{"eggs"}},
			`{}: unknown class "eggs" (available: ham, spam)`},
		{"unknown extension", file("corpus.dat", "a b"), Options{},
			"{}: cannot tell the format from the name or the first line (want a folder, a tar archive, .tsv, .csv, .jsonl or fastText lines); pass --input-format"},
		{"unknown format", func(*testing.T) string { return "testdata/docs.tsv" }, Options{Format: "xml"},
			`unknown input format "xml" (want auto, dir, tar, tsv, csv, jsonl, fasttext)`},
		{"format tar on a folder", func(*testing.T) string { return "testdata/tree" }, Options{Format: "tar"}, "{}: is a folder, not a tar file"},
		{"format dir on a file", func(*testing.T) string { return "testdata/docs.tsv" }, Options{Format: "dir"}, "{}: not a folder (input format dir)"},
		{"split on tsv", func(*testing.T) string { return "testdata/docs.tsv" }, Options{Split: "train"},
			"{}: --split applies to folder trees and archives, not to tsv"},
		{"tsv missing tab", file("d.tsv", "a\tok\nno tab here\n"), Options{}, "{}:2: missing tab between label and text"},
		{"tsv empty label", file("d.tsv", "a\tx\n \tsome words\n"), Options{}, "{}:2: empty label"},
		{"tsv NUL", file("d.tsv", "a\tx\x00y\n"), Options{}, "{}:1: NUL byte in line"},
		{"tsv only blank lines", file("d.tsv", "\n \r\n\t\n"), Options{}, "{}: no documents"},
		{"jsonl invalid", file("d.jsonl", "{\"label\":\"a\",\"text\":\"x\"}\n\n{\"label\": \"a\", \"text\": }\n"), Options{},
			"{}:3: invalid JSON: invalid character '}' looking for beginning of value"},
		{"jsonl cut", file("d.jsonl", `{"label": "a", "text": "x`), Options{}, "{}:1: invalid JSON: unexpected end of JSON input"},
		{"jsonl missing label", file("d.jsonl", `{"text": "x"}`), Options{}, `{}:1: missing "label"`},
		{"jsonl missing text", file("d.jsonl", `{"label": "a"}`), Options{}, `{}:1: missing "text"`},
		{"jsonl label an object", file("d.jsonl", `{"label": {"a": 1}, "text": "x"}`), Options{}, `{}:1: "label" must be a string, number or boolean (or an array of them), got object`},
		{"jsonl not an object", file("d.jsonl", `["a", "x"]`), Options{}, `{}:1: want a JSON object, got array`},
		{"jsonl empty label", file("d.jsonl", `{"label": "", "text": "x"}`), Options{}, `{}:1: empty label`},
		{"jsonl label with tab", file("d.jsonl", `{"label": "a\tb", "text": "x"}`), Options{}, `{}:1: label "a\tb" contains a tab, line break or NUL`},
		{"jsonl NUL byte", file("d.jsonl", "{\"label\": \"a\", \"text\": \"x\x00\"}"), Options{}, `{}:1: NUL byte in line`},
		{"jsonl NUL escape", file("d.jsonl", `{"label": "a", "text": "x\u0000"}`), Options{}, `{}:1: NUL character in text`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.path(t)
			c, err := Read(p, tt.opts)
			if err == nil {
				t.Fatalf("no error; read %d documents", len(c.Docs))
			}
			if want := strings.ReplaceAll(tt.want, "{}", p); err.Error() != want {
				t.Errorf("error\n got %s\nwant %s", err, want)
			}
		})
	}
}

func TestReadErrorsWrap(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "nope"), Options{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing path: %v does not wrap fs.ErrNotExist", err)
	}
	if os.Geteuid() == 0 {
		return // root reads anything
	}
	d := writeTree(t, map[string]string{"a/1": "x"})
	p := filepath.Join(d, "a", "1")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err = Read(d, Options{})
	if !errors.Is(err, fs.ErrPermission) || !strings.HasPrefix(err.Error(), p+": ") {
		t.Errorf("unreadable file: %v", err)
	}
}

func TestReadStdinDash(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old }()
	go func() {
		w.Write([]byte("a\tx\n"))
		w.Close()
	}()
	c, err := Read("-", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Source != "-" || !reflect.DeepEqual(c.Docs, []Document{{ID: "stdin:1", Label: "a", Text: "x"}}) {
		t.Errorf("got %q %+v", c.Source, c.Docs)
	}
}

func TestReadProgress(t *testing.T) {
	arch := writeTar(t, t.TempDir(), "t.tgz", treeMembers(t, "testdata/tree", ""))
	for _, p := range []string{"testdata/tree", arch, "testdata/docs.tsv"} {
		var last [2]int
		calls := 0
		_, err := Read(p, Options{Progress: func(done, total int) { calls++; last = [2]int{done, total} }})
		if err != nil {
			t.Fatal(err)
		}
		if calls == 0 || last[0] != last[1] || last[0] <= 0 {
			t.Errorf("%s: %d calls, last %v", p, calls, last)
		}
	}
}

func TestDecode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain ascii\r\n", "plain ascii\r\n"},
		{"caf\xc3\xa9", "café"},           // valid UTF-8 stays
		{"caf\xe9", "café"},               // latin-1
		{"\xff\xfe\x80", "ÿþ\u0080"},      // every byte one rune
		{"\xc3\xa9\xe9", "Ã©é"},           // one bad byte: the whole text is latin-1
		{"\xed\xa0\x80", "í\u00a0\u0080"}, // UTF-16 surrogate: not valid UTF-8
	}
	for _, tt := range tests {
		if got := Decode([]byte(tt.in)); got != tt.want {
			t.Errorf("Decode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDecodeAllocs(t *testing.T) {
	b := bytes.Repeat([]byte("ascii text "), 100)
	if n := testing.AllocsPerRun(100, func() { _ = Decode(b) }); n != 1 {
		t.Errorf("Decode of ASCII: %v allocations, want 1", n)
	}
	l := bytes.Repeat([]byte("latin \xe9 "), 100)
	if n := testing.AllocsPerRun(100, func() { _ = Decode(l) }); n != 1 {
		t.Errorf("Decode of latin-1: %v allocations, want 1", n)
	}
}

func TestReadLongLine(t *testing.T) {
	// Longer than the line reader's buffer, on both sides of a short line.
	long := strings.Repeat("word ", 120_000)
	p := filepath.Join(t.TempDir(), "long.tsv")
	os.WriteFile(p, []byte("a\t"+long+"\nb\tshort\nc\t"+long), 0o644)
	c, err := Read(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != 3 || c.Docs[0].Text != long || c.Docs[1].Text != "short" || c.Docs[2].Text != long {
		t.Errorf("got %d documents", len(c.Docs))
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"a/b":         "a/b",
		"./a/b":       "a/b",
		"a/":          "a",
		"/a//b/":      "a/b",
		"a/./b":       "a/b",
		"../../a/b":   "a/b",
		"a/../b":      "b",
		".":           "",
		"./":          "",
		"/":           "",
		".hidden":     "",
		"a/.DS_Store": "",
		"a/._b":       "",
		".git/x":      "",
		"a.b/c.d":     "a.b/c.d",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDropTexts: DropTexts empties the texts and keeps everything else.
func TestDropTexts(t *testing.T) {
	c, err := Read("testdata/tree", Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := *c
	before.Docs = slices.Clone(c.Docs)
	labels := c.LabelIDs()
	c.DropTexts()
	if len(c.Docs) != len(before.Docs) || !slices.Equal(c.LabelIDs(), labels) || !slices.Equal(c.Labels, before.Labels) {
		t.Fatalf("DropTexts changed the documents or labels")
	}
	for i, d := range c.Docs {
		want := before.Docs[i]
		want.Text = ""
		if !reflect.DeepEqual(d, want) {
			t.Errorf("document %d: %+v, want %+v", i, d, want)
		}
		if before.Docs[i].Text == "" {
			t.Errorf("document %d had no text to drop", i)
		}
	}
}
