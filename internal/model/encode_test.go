package model

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// TestHashingWriter: hashingWriter writes and hashes what io.MultiWriter(w,
// h) would, for writes below and above hashAside.
func TestHashingWriter(t *testing.T) {
	var want []byte
	var got bytes.Buffer
	hw := &hashingWriter{w: &got, h: sha256.New()}
	for i, n := range []int{10, hashAside + 7, 0, 3 * hashAside, 100} {
		p := bytes.Repeat([]byte{byte(i + 1), byte(n)}, n/2+1)[:n]
		want = append(want, p...)
		if k, err := hw.Write(p); k != n || err != nil {
			t.Fatalf("Write(%d bytes) = %d, %v", n, k, err)
		}
	}
	if sum := sha256.Sum256(want); !bytes.Equal(got.Bytes(), want) || !bytes.Equal(hw.h.Sum(nil), sum[:]) {
		t.Error("hashingWriter wrote or hashed other bytes")
	}
}
