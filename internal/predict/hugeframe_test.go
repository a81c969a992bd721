package predict

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestFrameHugeLinesExact: a line longer than maxScratch is assembled in
// a buffer of exactly its length, once: read from a file it is measured
// first (corpus.RecordLength), and the framer waits for room (f.room)
// before it makes the buffer; from a stream it is kept in pieces and
// joined once, not in a buffer doubling past it (issue 28, item 7: a line
// of 200 MiB took a 256 MiB buffer, 384 MiB while copied).
func TestFrameHugeLinesExact(t *testing.T) {
	const n = 6 << 20 // past maxScratch
	var lines []string
	for i := range 3 {
		lines = append(lines, strings.Repeat(string(rune('a'+i))+"bc ", n/4))
	}
	input := strings.Join(lines, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "h.txt")
	if err := os.WriteFile(path, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, file := range []bool{true, false} {
		var r io.Reader = strings.NewReader(input)
		if file {
			f.Seek(0, io.SeekStart)
			r = f
		}
		fr := newFramer(r, "h.txt", InputLines, 16<<20)
		var rooms []int64
		fr.room = func(n int64) error { rooms = append(rooms, n); return nil }
		if file {
			fr.at = f
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var got []record
		for {
			rec, _, err := fr.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rec)
		}
		runtime.ReadMemStats(&after)
		if len(got) != 3 {
			t.Fatalf("file %v: %d records", file, len(got))
		}
		for i, rec := range got {
			if rec.text != lines[i] {
				t.Errorf("file %v: record %d differs", file, i+1)
			}
		}
		a := after.TotalAlloc - before.TotalAlloc
		want := uint64(3*n + n/4) // one buffer a line
		if !file {
			want = 3 * 3 * n // doubling up to maxScratch, pieces, the join
		}
		if a > want {
			t.Errorf("file %v: 3 lines of %d MiB: %d MiB allocated, want under %d MiB", file, n>>20, a>>20, want>>20)
		}
		if len(rooms) == 0 || (file && rooms[0] != n+1) {
			t.Errorf("file %v: room told %v", file, rooms[:min(3, len(rooms))])
		}
	}
}
