package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	for _, want := range []string{"first", "second"} {
		if err := WriteFile(p, writeString(want)); err != nil {
			t.Fatal(err)
		}
		if got := readString(t, p); got != want {
			t.Fatalf("read back %q, want %q", got, want)
		}
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("folder holds %v, want only out.txt", got)
	}
}

func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(p, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want wrapping boom", err)
	}
	if got := readString(t, p); got != "old" {
		t.Fatalf("old file changed to %q", got)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("temporary file left behind: %v", got)
	}
}

func TestWriteFileMissingDir(t *testing.T) {
	err := WriteFile(filepath.Join(t.TempDir(), "no", "such", "x"), func(io.Writer) error { return nil })
	if err == nil {
		t.Fatal("want error for missing folder")
	}
}

func TestWriteFileRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "missing"), dangling); err != nil {
		t.Fatal(err)
	}
	toDir := filepath.Join(dir, "todir")
	if err := os.Symlink(sub, toDir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sub, dangling, toDir, os.DevNull} {
		before, _ := os.Lstat(p)
		err := WriteFile(p, writeString("x"))
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: err = %v, want ErrNotRegular", p, err)
		}
		if err := CheckOutput(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("CheckOutput(%s) = %v, want ErrNotRegular", p, err)
		}
		after, _ := os.Lstat(p)
		if before.Mode() != after.Mode() {
			t.Errorf("%s: mode changed from %v to %v", p, before.Mode(), after.Mode())
		}
	}
	if got := entries(t, dir); len(got) != 3 {
		t.Errorf("folder holds %v, want sub, dangling, todir", got)
	}
	if got := entries(t, sub); len(got) != 0 {
		t.Errorf("folder sub holds %v", got)
	}
}

func TestWriteFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := CheckOutput(link); err != nil {
		t.Fatalf("CheckOutput of a symlink to a regular file: %v", err)
	}
	if err := WriteFile(link, writeString("new")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v, %v", fi.Mode(), err)
	}
	if got := readString(t, real); got != "new" {
		t.Fatalf("target holds %q, want new", got)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("target mode %v, want 0640 kept", fi.Mode().Perm())
	}
}

func TestCheckOutputInputs(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.tsv")
	if err := os.WriteFile(data, []byte("a\tb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.tsv")
	if err := os.Link(data, hard); err != nil {
		t.Fatal(err)
	}
	soft := filepath.Join(dir, "soft.tsv")
	if err := os.Symlink(data, soft); err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "corpus")
	doc := filepath.Join(corpus, "a", "1.txt")
	if err := os.MkdirAll(filepath.Dir(doc), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.tsv")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dotted := filepath.Join(dir, "rel", "..", "data.tsv")
	os.Mkdir(filepath.Join(dir, "rel"), 0o755)
	for _, c := range []struct {
		out    string
		inputs []string
		want   error
	}{
		{data, []string{data}, ErrInput},
		{dotted, []string{data}, ErrInput},
		{hard, []string{data}, ErrInput},
		{soft, []string{data}, ErrInput},
		{data, []string{soft}, ErrInput},
		{data, []string{"missing", other, data}, ErrInput},
		{doc, []string{corpus}, ErrInput},
		{other, []string{data, corpus}, nil},
		{filepath.Join(corpus, "new.nbm"), []string{corpus}, nil}, // nothing to destroy
		{filepath.Join(dir, "new.nbm"), []string{data}, nil},
	} {
		err := CheckOutput(c.out, c.inputs...)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("CheckOutput(%s, %v) = %v, want %v", c.out, c.inputs, err, c.want)
		}
		if err != nil && !strings.Contains(err.Error(), c.out) {
			t.Errorf("error %q does not name the output", err)
		}
	}
}

func TestWriteFilesAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.png")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	err := WriteFiles(File{a, writeString("new")}, File{b, func(io.Writer) error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if readString(t, a) != "old" || readString(t, b) != "old" {
		t.Fatal("a failed second write changed the first file")
	}
	if got := entries(t, dir); len(got) != 2 {
		t.Fatalf("temporary files left: %v", got)
	}
	if err := WriteFiles(File{a, writeString("A")}, File{b, writeString("B")}); err != nil {
		t.Fatal(err)
	}
	if readString(t, a) != "A" || readString(t, b) != "B" {
		t.Fatal("files not replaced")
	}
	err = WriteFiles(File{a, writeString("1")}, File{filepath.Join(dir, ".", "a.csv"), writeString("2")})
	if err == nil || !strings.Contains(err.Error(), "written twice") {
		t.Fatalf("same destination twice: err = %v", err)
	}
	if readString(t, a) != "A" {
		t.Fatal("a refused write changed the file")
	}
}
