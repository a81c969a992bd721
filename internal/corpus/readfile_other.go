//go:build !unix

package corpus

import (
	"io"
	"os"
)

// readInto appends the content of the file at p to buf, failing once it
// passes max bytes (ErrTooLarge).
func readInto(buf []byte, p string, max int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return buf, pathError(p, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= int64(max) {
		buf = growFor(buf, fi.Size())
	}
	start := len(buf)
	buf, err = readAll(buf, io.LimitReader(f, int64(max)+1))
	if err == nil && len(buf)-start > max {
		return buf, ErrTooLarge
	}
	if err != nil {
		return buf, pathError(p, err)
	}
	return buf, nil
}
