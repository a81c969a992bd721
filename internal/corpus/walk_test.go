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
	err := Walk(path, opts, func(d Document, err error) error {
		if err != nil {
			t.Errorf("document %s: %v", d.ID, err)
		}
		docs = append(docs, d)
		return nil
	})
	if err != nil {
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
		err := Walk(p, Options{}, func(Document, error) error {
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

// walked is what a walk gave: document IDs, and for the documents it could
// not read their errors.
type walked struct {
	ids  []string
	errs map[string]error
}

func walkErrs(t *testing.T, path string, maxDoc int) walked {
	t.Helper()
	w := walked{errs: map[string]error{}}
	err := Walk(path, Options{MaxDocBytes: maxDoc}, func(d Document, err error) error {
		w.ids = append(w.ids, d.ID)
		if err != nil {
			w.errs[d.ID] = err
			if d.Text != "" {
				t.Errorf("%s: text %q with error %v", d.ID, d.Text, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestWalkUnreadable checks that a document with NUL bytes or over the
// size bound is not dropped: fn gets it, in its place, with an error
// naming it, and the walk goes on.
func TestWalkUnreadable(t *testing.T) {
	files := map[string]string{"a": "text", "b": "bin\x00", "c/d": "more", "e": strings.Repeat("long ", 10)}
	dir := writeTree(t, files)
	var ms []member
	for _, n := range []string{"a", "b", "c/d", "e"} {
		ms = append(ms, member{n, files[n]})
	}
	arch := writeTar(t, t.TempDir(), "w.tgz", ms)
	for _, tt := range []struct{ root, sep string }{{dir, string(filepath.Separator)}, {arch, "/"}} {
		w := walkErrs(t, tt.root, 20)
		id := func(n string) string { return tt.root + tt.sep + filepath.FromSlash(n) }
		if tt.sep == "/" {
			id = func(n string) string { return tt.root + "/" + n }
		}
		if want := []string{id("a"), id("b"), id("c/d"), id("e")}; !reflect.DeepEqual(w.ids, want) {
			t.Errorf("%s: IDs %q, want %q", tt.root, w.ids, want)
		}
		if err := w.errs[id("b")]; !errors.Is(err, ErrBinary) || err.Error() != id("b")+": contains NUL bytes: not text" {
			t.Errorf("%s: NUL file: %v", tt.root, err)
		}
		if err := w.errs[id("e")]; !errors.Is(err, ErrTooLarge) || err.Error() != id("e")+": document larger than 20 bytes (raise --max-doc-bytes)" {
			t.Errorf("%s: large file: %v", tt.root, err)
		}
		if len(w.errs) != 2 {
			t.Errorf("%s: errors %v", tt.root, w.errs)
		}
	}
	// A single file over the bound, and exactly at it.
	e := filepath.Join(dir, "e")
	if w := walkErrs(t, e, 49); !errors.Is(w.errs[e], ErrTooLarge) {
		t.Errorf("single file: %v", w.errs)
	}
	if w := walkErrs(t, e, 50); len(w.errs) != 0 || len(w.ids) != 1 {
		t.Errorf("single file at the bound: %+v", w)
	}
}

// TestWalkNotRegular checks that a device or a FIFO given as a path is
// refused without being read (/dev/zero would never end), and that one
// inside a folder is skipped with a warning.
func TestWalkNotRegular(t *testing.T) {
	ok := func(Document, error) error { t.Error("fn called"); return nil }
	if _, err := os.Stat("/dev/zero"); err == nil {
		if err := Walk("/dev/zero", Options{}, ok); err == nil || err.Error() != "/dev/zero: not a regular file (a character device); only stdin may be a device or a pipe" {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := Walk(fifo, Options{}, ok); err == nil || !strings.Contains(err.Error(), "not a regular file (a named pipe)") {
		t.Errorf("FIFO: %v", err)
	}
	var warns collect
	if err := Walk(dir, Options{Warn: warns.warn}, ok); err != nil || len(warns) != 1 || !strings.Contains(warns[0], "not a regular file") {
		t.Errorf("folder with a FIFO: %v, warnings %q", err, warns)
	}
}

func TestWalkErrors(t *testing.T) {
	ok := func(Document, error) error { return nil }
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

// TestWalkCodecByName: as Read, Walk refuses an archive or record file
// whose name announces a compression (any of gzip, zstd, bzip2) that its
// bytes do not have.
func TestWalkCodecByName(t *testing.T) {
	dir := t.TempDir()
	tgz := tarBytes(t, []member{{"a/1", "one"}}, true)
	files := []struct {
		name, format string
		body         []byte
		want         string
	}{
		{"x.tar.zst", "", tgz, "not a zstd file"},
		{"x.tar.bz2", "", tgz, "not a bzip2 file"},
		{"x.tgz", "", tarBytes(t, []member{{"a/1", "one"}}, false), "not a gzip file"},
		{"x.tsv.zst", FormatTSV, []byte("a\tone\n"), "not a zstd file"},
		{"x.jsonl.gz", FormatJSONL, []byte("{}\n"), "not a gzip file"},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.body, 0o644); err != nil {
			t.Fatal(err)
		}
		err := Walk(p, Options{Format: f.format}, func(Document, error) error { return nil })
		if err == nil || err.Error() != p+": "+f.want {
			t.Errorf("%s: err %v, want %s", f.name, err, f.want)
		}
	}
	p := filepath.Join(dir, "y.tsv.gz")
	if err := os.WriteFile(p, gzipBytes(t, []byte("a\tone\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Walk(p, Options{Format: FormatTSV}, func(Document, error) error { return nil }); err != nil {
		t.Errorf("y.tsv.gz: %v", err)
	}
}

func TestWalkFrom(t *testing.T) {
	var docs []Document
	err := WalkFrom(strings.NewReader("caf\xe9"), "stdin", Options{}, func(d Document, err error) error { docs = append(docs, d); return err })
	if err != nil || !reflect.DeepEqual(docs, []Document{{ID: "stdin", Text: "café"}}) {
		t.Errorf("got %+v, %v", docs, err)
	}
}
