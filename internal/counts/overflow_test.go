package counts

import (
	"bytes"
	"crypto/sha256"
	"runtime"
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

// FuzzDecodeChecksummed fuzzes the counts reader past its checksum, which
// random bytes would almost never match: the input follows the magic
// number and the SHA-256 of both is appended. Whatever the file declares,
// decoding allocates in proportion to the bytes read (issue 28, item 17).
func FuzzDecodeChecksummed(f *testing.F) {
	texts, labels := docs(6, 3)
	b := encode(f, countAll(f, settings(), nil, texts, labels, Options{}))
	f.Add(b[len(magic) : len(b)-sha256.Size])
	f.Fuzz(func(t *testing.T, data []byte) {
		b := append(append([]byte{}, magic[:]...), data...)
		sum := sha256.Sum256(b)
		b = append(b, sum[:]...)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		c, err := Decode(bytes.NewReader(b), "f.nbc")
		runtime.ReadMemStats(&ms)
		if used, bound := ms.TotalAlloc-before, uint64(64*len(b)+8<<20); used > bound {
			t.Fatalf("decoding %d bytes allocated %d, over %d", len(b), used, bound)
		}
		if err != nil {
			return
		}
		if got := encode(t, c); !bytes.Equal(got, b) {
			t.Fatal("a decoded file does not encode to the same bytes")
		}
	})
}
