package vectorize

import (
	"errors"
	"strings"
	"testing"
)

// TestWriteTop checks the table of 'nbtext vocab --top': the terms by df
// descending, ties by term, right-aligned columns; n ≤ 0 or past the
// vocabulary lists every term.
func TestWriteTop(t *testing.T) {
	v, err := NewVocabulary(DefaultSettings(), []string{"a", "b", "c", "long"}, []int32{1, 3, 3, 2}, []int64{1, 3, 15, 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteTop(&b, v, 3); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"  rank  term  df  cf\n" +
		"     1     b   3   3\n" +
		"     2     c   3  15\n" +
		"     3  long   2   2\n"
	if b.String() != want {
		t.Errorf("WriteTop(3):\n%s\nwant\n%s", b.String(), want)
	}
	for _, n := range []int{0, 9} {
		b.Reset()
		if err := WriteTop(&b, v, n); err != nil || strings.Count(b.String(), "\n") != 5 || !strings.HasSuffix(b.String(), "     4     a   1   1\n") {
			t.Errorf("WriteTop(%d): %v\n%s", n, err, b.String())
		}
	}
	if err := WriteTop(failWriter{}, v, 2); err == nil {
		t.Error("a failed write: no error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
