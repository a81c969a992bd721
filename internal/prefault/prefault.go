package prefault

import (
	"os"
	"unsafe"
)

// minBytes is the size from which Make touches the pages: smaller
// slices come from spans the runtime shares between objects, most of
// them already touched.
const minBytes = 64 << 10

// pageSize is the size of a page of memory on this machine.
var pageSize = os.Getpagesize()

// Make returns make([]T, n), with each of its pages written once (see
// the package comment).
func Make[T any](n int) []T {
	s := make([]T, n)
	Touch(s)
	return s
}

// Touch writes the zero value of T into one element of every page of s.
// Every element of s must be the zero value (s was just made), as Touch
// does not keep what it overwrites.
func Touch[T any](s []T) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if size == 0 || len(s)*size < minBytes {
		return
	}
	step := max(1, pageSize/size)
	for i := 0; i < len(s); i += step {
		s[i] = zero
	}
	s[len(s)-1] = zero
}
