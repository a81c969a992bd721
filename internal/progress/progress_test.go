package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProgressUnits checks that a bar says what it counts: bytes as MB,
// other phases with their unit, and the phase's name.
func TestProgressUnits(t *testing.T) {
	var b bytes.Buffer
	p := Bar(&b, "reading", Bytes)
	p(0, 50_000_000)
	time.Sleep(150 * time.Millisecond) // past the throttle
	p(25_000_000, 50_000_000)
	if s := b.String(); !strings.Contains(s, "reading") || !strings.Contains(s, "25/50 MB") {
		t.Errorf("bytes bar %q: want the phase and 25/50 MB", s)
	}
	b.Reset()
	p = Bar(&b, "cross-validating", phaseUnits["cross-validating"])
	p(0, 10)
	time.Sleep(150 * time.Millisecond)
	p(3, 10)
	if s := b.String(); !strings.Contains(s, "cross-validating") || !strings.Contains(s, "3/10") || !strings.Contains(s, "fits/") {
		t.Errorf("count bar %q: want the phase, 3/10 and the unit fits", s)
	}
}

// TestProgressUnknownTotal checks that a stream (total 0: unknown) is a
// spinner that counts on, not a bar finished at every call, and that the
// last call (done == total) finishes it.
func TestProgressUnknownTotal(t *testing.T) {
	var b bytes.Buffer
	p := Bar(&b, "reading", Bytes)
	p(1_000_000, 0)
	time.Sleep(150 * time.Millisecond)
	p(3_000_000, 0)
	time.Sleep(250 * time.Millisecond) // a spinner redraws itself
	s := b.String()
	if !strings.Contains(s, "3.0 MB") {
		t.Errorf("spinner %q: want the bytes read so far", s)
	}
	if strings.Contains(s, "100%") {
		t.Errorf("spinner %q: finished before the end", s)
	}
	p(4_000_000, 4_000_000)
}

// TestReadingProgressUnit checks the unit readingProgress chooses: bytes
// for a file and stdin, documents for a folder (the corpus readers' units).
func TestReadingProgressUnit(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "c.tsv")
	if err := os.WriteFile(f, []byte("a\tb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{{f, Bytes}, {"-", Bytes}, {dir, "documents"}} {
		if got := ReadingUnit(c.path); got != c.want {
			t.Errorf("%s: unit %q, want %q", c.path, got, c.want)
		}
	}
	if Reading(&bytes.Buffer{}, false, f) != nil {
		t.Error("a bar on a buffer, which is not a terminal")
	}
}
