package fsutil

import (
	"io"
	"os"
	"runtime"
	"testing"
)

func TestScratchLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := NewScratch(dir, "x-*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteString("hello"); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("an open scratch file is in its folder: %v", ents)
		}
	}
	b, err := io.ReadAll(io.NewSectionReader(s, 0, 5))
	if err != nil || string(b) != "hello" {
		t.Errorf("read back %q, %v", b, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a closed scratch file is left: %v", ents)
	}
}
