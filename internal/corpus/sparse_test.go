package corpus

import (
	"strings"
	"testing"
)

// TestSparseMemberWarned: a GNU sparse member (tar -S; testdata's archive
// holds pos/3.txt, 1 MiB with a hole) is skipped with a warning naming
// it, in Read and in Stream, not silently (issue 28, item 13).
func TestSparseMemberWarned(t *testing.T) {
	const p = "testdata/sparse.tar.gz"
	var read, streamed []string
	c, err := Read(p, Options{Warn: func(m string) { read = append(read, m) }})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := Stream(p, Options{Warn: func(m string) { streamed = append(streamed, m) }}, func(Document) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != 4 || n != 4 {
		t.Errorf("read %d, streamed %d documents, want 4", len(c.Docs), n)
	}
	for _, w := range [][]string{read, streamed} {
		if len(w) != 1 || !strings.Contains(w[0], "skipping pos/3.txt: a sparse file (tar -S)") {
			t.Errorf("warnings %q, want one naming pos/3.txt as sparse", w)
		}
	}
}
