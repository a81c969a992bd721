package counts

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestClassDocsOverflow: class documents that sum past 2^63, in one file
// or across the parts of a merge, are refused with that reason rather
// than wrapping negative and later reported as "no terms left after
// pruning" (issue 28, item 14).
func TestClassDocsOverflow(t *testing.T) {
	s := vectorize.DefaultSettings()
	big := &Header{Settings: s, Classes: []string{"a", "b"}, ClassDocs: []int64{1 << 62, 1 << 62}}
	if err := checkHeader(big); err == nil || !strings.Contains(err.Error(), "sum past 2^63") {
		t.Errorf("checkHeader: %v", err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, &Counts{Header: *big, Start: []int{0}}); err == nil {
		if _, err := Decode(&buf, "big.nbc"); err == nil || !strings.Contains(err.Error(), "sum past 2^63") {
			t.Errorf("Decode: %v", err)
		}
	}
	half := &Header{Settings: s, Classes: []string{"a"}, ClassDocs: []int64{1<<62 + 1<<61}}
	if _, _, err := MergeHeaders([]*Header{half, half}, []string{"p1.nbc", "p2.nbc"}); err == nil || !strings.Contains(err.Error(), "p2.nbc: the documents of the parts sum past 2^63") {
		t.Errorf("MergeHeaders: %v", err)
	}
}
