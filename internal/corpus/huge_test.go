package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// hugeText returns n bytes of words, a document past keepLong.
func hugeText(n int, seed int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "w%d ", (i*7+seed)%5000)
	}
	return b.String()[:n]
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLineReaderHugeLines: a line longer than the read buffer is
// assembled into a buffer of exactly its length; a run of such lines
// reuses it, allocating nothing more; a short line after lets it go
// (issue 28, item 7: 10 lines of 200 MiB).
func TestLineReaderHugeLines(t *testing.T) {
	const n = 5 << 20 // past keepLong
	lines := []string{hugeText(n, 1), hugeText(n, 2), hugeText(n-100, 3), "short", hugeText(n, 4)}
	lr := newLineReader(bufio.NewReaderSize(strings.NewReader(strings.Join(lines, "\n")+"\n"), 64<<10), 16<<20)
	for i, want := range lines {
		var got []byte
		var err error
		a := allocated(func() { got, err = lr.next() })
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("line %d differs", i+1)
		}
		switch i {
		case 0, 4: // longer than the lines before: one buffer of its length
			if cap(lr.long) != len(want)+1 { // with its "\n"
				t.Errorf("line %d of %d bytes: buffer of %d", i+1, len(want), cap(lr.long))
			}
			if a > 2*n+n/8 {
				t.Errorf("line %d of %d MiB: %d MiB allocated, want about 2 lines at most", i+1, n>>20, a>>20)
			}
		case 1, 2: // the buffer is reused
			if a > 64<<10 {
				t.Errorf("line %d: %d KiB allocated, want the buffer of line 1 reused", i+1, a>>10)
			}
		case 3:
			if lr.long != nil {
				t.Errorf("a short line after huge ones: %d bytes kept", cap(lr.long))
			}
		}
	}
	if _, err := lr.next(); err == nil {
		t.Error("no end")
	}
}

// TestArchiveHugeMembers: a huge archive member is read into a buffer of
// exactly its size, once: Walk hands it over with its text (no copy),
// Stream with Transient reuses one buffer for a run of them, and both
// tell Options.Room the member's size before reading it (issue 28, item
// 7: an archive of 10 members of 200 MiB).
func TestArchiveHugeMembers(t *testing.T) {
	const n = 5 << 20 // past keepMember
	texts := []string{hugeText(n, 1), hugeText(n, 2), hugeText(n, 3)}
	members := []member{{"a/", ""}, {"b/", ""}, {"a/1.txt", texts[0]}, {"b/2.txt", texts[1]}, {"a/3.txt", texts[2]}}
	path := writeTar(t, t.TempDir(), "h.tar", members)
	var rooms []int64
	room := func(size int64) error { rooms = append(rooms, size); return nil }

	var got []string
	a := allocated(func() {
		err := Walk(path, Options{Room: room}, func(d Document, err error) error {
			if err != nil {
				return err
			}
			got = append(got, d.Text) // Walk's texts may be kept
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if strings.Join(got, "|") != strings.Join(texts, "|") {
		t.Fatal("Walk: texts differ")
	}
	if a > 3*n+n/2 {
		t.Errorf("Walk of 3 members of %d MiB: %d MiB allocated, want one buffer each", n>>20, a>>20)
	}
	if fmt.Sprint(rooms) != fmt.Sprint([]int64{n, n, n}) {
		t.Errorf("Walk: Room told %v", rooms)
	}

	rooms, got = nil, nil
	var sum int
	a = allocated(func() {
		err := Stream(path, Options{Room: room, Transient: true}, func(d Document) error {
			sum += len(d.Text)
			got = append(got, d.Label+":"+d.Text[:20])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if sum != 3*n || strings.Join(got, "|") != "a:"+texts[0][:20]+"|b:"+texts[1][:20]+"|a:"+texts[2][:20] {
		t.Errorf("Stream: documents differ: %v", got)
	}
	if a > n+n/2 {
		t.Errorf("Stream (transient) of 3 members of %d MiB: %d MiB allocated, want one buffer for all", n>>20, a>>20)
	}
	if fmt.Sprint(rooms) != fmt.Sprint([]int64{n, n, n}) {
		t.Errorf("Stream: Room told %v", rooms)
	}

	// Not transient, each text has its own memory.
	var kept []string
	if err := Stream(path, Options{}, func(d Document) error { kept = append(kept, d.Text); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(kept, "|") != strings.Join(texts, "|") {
		t.Error("Stream: kept texts differ")
	}
	if !bytes.Equal([]byte(kept[0]), []byte(texts[0])) {
		t.Error("first text changed")
	}
}

// TestStreamHugeLines: a transient stream of huge TSV lines copies none of
// them, the first (which might have been a header row) included: the
// lines cost their assembly, twice the first line, and nothing after.
func TestStreamHugeLines(t *testing.T) {
	const n = 5 << 20
	var b strings.Builder
	for i := range 4 {
		fmt.Fprintf(&b, "c%d\t%s\n", i%2, hugeText(n, i))
	}
	path := t.TempDir() + "/h.tsv"
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := 0
	a := allocated(func() {
		err := Stream(path, Options{Transient: true}, func(d Document) error {
			if len(d.Text) != n || d.Text[:10] != hugeText(10, docs) {
				t.Errorf("document %d: %d bytes %q", docs+1, len(d.Text), d.Text[:10])
			}
			docs++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if docs != 4 {
		t.Fatalf("%d documents", docs)
	}
	// A regular file: each line is measured first (RecordLength) and
	// read into one buffer of its length, which the next lines reuse.
	if a > n+n/2 {
		t.Errorf("4 lines of %d MiB streamed: %d MiB allocated, want about one line", n>>20, a>>20)
	}
	// A stream: the first line is assembled in pieces, joined once.
	docs = 0
	a = allocated(func() {
		err := StreamFrom(strings.NewReader(b.String()), "h.tsv", Options{Transient: true}, func(d Document) error {
			docs++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if docs != 4 || a > 2*n+n/2 {
		t.Errorf("4 lines of %d MiB streamed from a reader: %d documents, %d MiB allocated, want about twice one line", n>>20, docs, a>>20)
	}
}

// TestRecordLength: the length of a record from its start in a file, or 0
// when the file does not hold what was read there or the record passes
// the limit.
func TestRecordLength(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	data := "ab\n" + long + "\nlast"
	r := strings.NewReader(data)
	for _, c := range []struct {
		off   int64
		head  string
		limit int
		want  int
	}{
		{0, "a", 10, 3},
		{3, "xx", 1 << 20, len(long) + 1},
		{3, "xx", len(long), 0},             // past the limit
		{3, "xy", 1 << 20, 0},               // the file holds something else
		{int64(len(data) - 4), "la", 10, 4}, // the last record, without "\n"
		{int64(len(data) - 4), "la", 3, 0},
	} {
		if got := RecordLength(r, c.off, []byte(c.head), '\n', c.limit); got != c.want {
			t.Errorf("RecordLength(%d, %q, %d) = %d, want %d", c.off, c.head, c.limit, got, c.want)
		}
	}
}

// TestFolderHugeFiles: a folder's huge files are read in batches of at
// most batchBytes (a huge one alone), Room told each batch's bytes first,
// each into a buffer of exactly its size handed over with its text: not
// 512 at a time, each grown while read and copied (issue 28, item 7).
func TestFolderHugeFiles(t *testing.T) {
	const n = 5 << 20
	files := map[string]string{}
	for i := range 3 {
		files[fmt.Sprintf("c%d/big%d.txt", i%2, i)] = hugeText(n, i)
	}
	for i := range 20 {
		files[fmt.Sprintf("c%d/small%02d.txt", i%2, i)] = hugeText(100, i)
	}
	root := writeTree(t, files)
	var rooms []int64
	room := func(size int64) error { rooms = append(rooms, size); return nil }
	total := 0
	a := allocated(func() {
		err := Walk(root, Options{Room: room}, func(d Document, err error) error {
			if err != nil {
				return err
			}
			total += len(d.Text)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if total != 3*n+20*100 {
		t.Fatalf("Walk: %d bytes of text", total)
	}
	if a > 3*n+n/2 {
		t.Errorf("Walk of 3 files of %d MiB: %d MiB allocated, want one buffer each", n>>20, a>>20)
	}
	var sum int64
	for _, r := range rooms {
		sum += r
	}
	if sum != int64(total) || len(rooms) < 1 {
		t.Errorf("Walk: Room told %v", rooms)
	}
	rooms, total = nil, 0
	a = allocated(func() {
		err := Stream(root, Options{Room: room}, func(d Document) error {
			total += len(d.Text)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if total != 3*n+20*100 {
		t.Fatalf("Stream: %d bytes of text", total)
	}
	if a > 3*n+n/2 {
		t.Errorf("Stream of 3 files of %d MiB: %d MiB allocated, want one buffer each", n>>20, a>>20)
	}
	sum = 0
	for _, r := range rooms {
		sum += r
	}
	if sum != int64(total) {
		t.Errorf("Stream: Room told %v", rooms)
	}
}

// TestNextBatch: batches of at most walkBatch files and batchBytes bytes,
// a file past the bound alone.
func TestNextBatch(t *testing.T) {
	const b = batchBytes
	for _, c := range []struct {
		sizes []int64
		want  int
	}{
		{[]int64{1, 2, 3}, 3},
		{[]int64{b, 1}, 1},
		{[]int64{1, b}, 1},
		{[]int64{2 * b}, 1},
		{[]int64{b / 2, b / 2, 1}, 2},
		{[]int64{-1, -1}, 2},
		{make([]int64, walkBatch+5), walkBatch},
	} {
		if got := nextBatch(c.sizes); got != c.want {
			t.Errorf("nextBatch(%d sizes, first %v) = %d, want %d", len(c.sizes), c.sizes[:min(3, len(c.sizes))], got, c.want)
		}
	}
}
