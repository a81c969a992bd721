//go:build unix

package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadIntoRefusesLargeFileUnread: a regular file whose size passes the
// bound is refused before any of it is read, so refusing a file of 300 MB
// under the default bound of 256 MiB no longer holds the first 256 MiB in
// memory (issue 12, item 2: 1 GB peak before). The file is sparse: it takes
// no disk. A file within the bound is read as before.
func TestReadIntoRefusesLargeFileUnread(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	const max = 1 << 20
	if err := f.Truncate(max + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	buf, err := readInto(make([]byte, 0, 64), big, max)
	if err != ErrTooLarge {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	if len(buf) != 0 || cap(buf) != 64 {
		t.Errorf("the file was read before it was refused: len %d, cap %d", len(buf), cap(buf))
	}
	small := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(small, []byte("pgp keys"), 0o644); err != nil {
		t.Fatal(err)
	}
	if buf, err = readInto(buf, small, 8); err != nil || string(buf) != "pgp keys" {
		t.Errorf("a file of exactly the bound: %q, %v", buf, err)
	}
}
