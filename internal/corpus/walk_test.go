package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// walkAll collects what Walk yields.
func walkAll(t *testing.T, path string, opts Options) []Document {
	t.Helper()
	var docs []Document
	if err := Walk(path, opts, func(d Document) error { docs = append(docs, d); return nil }); err != nil {
		t.Fatal(err)
	}
	return docs
}

func TestWalk(t *testing.T) {
	tree := filepath.Join("testdata", "tree")
	treeFiles := []string{"ham/1", "ham/2", "spam/10-latin1", "spam/11-utf8", "spam/9-crlf"}
	arch := writeTar(t, t.TempDir(), "w.tgz", []member{{"z/1", "one"}, {"a/", ""}, {"a/2", "two"}, {".hidden", "x"}})
	tests := []struct {
		name    string
		path    string
		opts    Options
		wantIDs []string
	}{
		{"folder", tree, Options{}, func() []string {
			out := make([]string, len(treeFiles))
			for i, f := range treeFiles {
				out[i] = filepath.Join(tree, filepath.FromSlash(f))
			}
			return out
		}()},
		{"archive in archive order", arch, Options{}, []string{arch + "/z/1", arch + "/a/2"}},
		{"file", filepath.Join(tree, "spam", "10-latin1"), Options{}, []string{filepath.Join(tree, "spam", "10-latin1")}},
		{"tsv file as one document", "testdata/docs.tsv", Options{}, []string{"testdata/docs.tsv"}},
		{"tsv lines", "testdata/docs.tsv", Options{Format: "tsv"},
			[]string{"testdata/docs.tsv:1", "testdata/docs.tsv:2", "testdata/docs.tsv:5", "testdata/docs.tsv:6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs := walkAll(t, tt.path, tt.opts)
			var got []string
			for _, d := range docs {
				got = append(got, d.ID)
				if d.Label != "" && tt.opts.Format == "" {
					t.Errorf("%s: label %q", d.ID, d.Label)
				}
			}
			if !reflect.DeepEqual(got, tt.wantIDs) {
				t.Errorf("IDs %q\nwant %q", got, tt.wantIDs)
			}
		})
	}
	docs := walkAll(t, filepath.Join(tree, "spam", "10-latin1"), Options{Remove: RemoveHeaders})
	if docs[0].Text != "naïve résumé \u00a0deal\n" {
		t.Errorf("decoded and stripped: %q", docs[0].Text)
	}
}

func TestWalkStops(t *testing.T) {
	stop := errors.New("stop")
	for _, p := range []string{"testdata/tree", writeTar(t, t.TempDir(), "w.tgz", treeMembers(t, "testdata/tree", ""))} {
		n := 0
		err := Walk(p, Options{}, func(Document) error {
			n++
			if n == 2 {
				return stop
			}
			return nil
		})
		if err != stop || n != 2 {
			t.Errorf("%s: err %v after %d documents, want stop after 2", p, err, n)
		}
	}
}

func TestWalkNUL(t *testing.T) {
	dir := writeTree(t, map[string]string{"a": "text", "b": "bin\x00", "c/d": "more"})
	var w collect
	var got []string
	err := Walk(dir, Options{Warn: w.warn}, func(d Document) error { got = append(got, d.ID); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "a"), filepath.Join(dir, "c", "d")}; !reflect.DeepEqual(got, want) {
		t.Errorf("IDs %q, want %q", got, want)
	}
	if want := []string{filepath.Join(dir, "b") + ": skipping document: contains NUL bytes"}; !reflect.DeepEqual([]string(w), want) {
		t.Errorf("warnings %q, want %q", w, want)
	}
}

func TestWalkErrors(t *testing.T) {
	ok := func(Document) error { return nil }
	dir := writeTree(t, map[string]string{"a": "x"})
	if err := os.Symlink("missing", filepath.Join(dir, "b")); err != nil {
		t.Skip(err)
	}
	tests := []struct {
		name, path string
		opts       Options
		want       string
	}{
		{"missing", filepath.Join(dir, "nope"), Options{}, filepath.Join(dir, "nope") + ": no such file or directory"},
		{"unreadable", dir, Options{}, filepath.Join(dir, "b") + ": no such file or directory"},
		{"split", dir, Options{Split: "train"}, "walk reads every file as a document: split and classes do not apply"},
		{"tar on folder", dir, Options{Format: "tar"}, dir + ": is a folder, not a tar file"},
	}
	for _, tt := range tests {
		if err := Walk(tt.path, tt.opts, ok); err == nil || err.Error() != tt.want {
			t.Errorf("%s: err %v, want %s", tt.name, err, tt.want)
		}
	}
}

func TestWalkFrom(t *testing.T) {
	var docs []Document
	err := WalkFrom(strings.NewReader("caf\xe9"), "stdin", Options{}, func(d Document) error { docs = append(docs, d); return nil })
	if err != nil || !reflect.DeepEqual(docs, []Document{{ID: "stdin", Text: "café"}}) {
		t.Errorf("got %+v, %v", docs, err)
	}
}
