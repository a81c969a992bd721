//go:build !unix

package corpus

import "os"

// readInto appends the content of the file at p to buf.
func readInto(buf []byte, p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return buf, pathError(p, err)
	}
	defer f.Close()
	buf, err = readAll(buf, f)
	if err != nil {
		return buf, pathError(p, err)
	}
	return buf, nil
}
