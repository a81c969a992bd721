package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	if err := os.WriteFile(a, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	if err := CheckOutput(filepath.Join(dir, "new"), a); err != nil {
		t.Errorf("new file: %v", err)
	}
	if err := CheckOutput(filepath.Join(dir, "b"), a, ""); err != nil {
		t.Errorf("other file: %v", err)
	}
	for _, out := range []string{a, link} {
		if err := CheckOutput(out, "", a); err == nil || !strings.Contains(err.Error(), "also an input") {
			t.Errorf("CheckOutput(%s, a): %v", out, err)
		}
	}
	if err := CheckOutput(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder: %v", err)
	}
}
