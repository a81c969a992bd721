package prefault

import (
	"testing"
	"unsafe"
)

func TestMakeIsZeroAndLong(t *testing.T) {
	for _, n := range []int{0, 1, 1000, minBytes/8 - 1, minBytes / 8, 1 << 20} {
		s := Make[float64](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i, v := range s {
			if v != 0 {
				t.Fatalf("Make(%d)[%d] = %v, want 0", n, i, v)
			}
		}
	}
}

type slot struct {
	a, b uint32
	id   int32
}

func TestTouchWritesEveryPage(t *testing.T) {
	// Touch overwrites with zeros, so a slice of ones shows each element
	// it wrote: there must be one in every page the slice spans.
	s := make([]slot, 3*minBytes/12+7)
	for i := range s {
		s[i] = slot{1, 1, 1}
	}
	Touch(s)
	base := uintptr(unsafe.Pointer(&s[0]))
	size := unsafe.Sizeof(s[0])
	written := map[uintptr]bool{}
	for i := range s {
		if s[i] == (slot{}) {
			written[(base+uintptr(i)*size)/uintptr(pageSize)] = true
		}
	}
	first := base / uintptr(pageSize)
	last := (base + uintptr(len(s))*size - 1) / uintptr(pageSize)
	for p := first; p <= last; p++ {
		if !written[p] {
			t.Fatalf("page %d of %d..%d not written", p, first, last)
		}
	}
}

func TestTouchLeavesSmallSlices(t *testing.T) {
	s := []int64{1, 2, 3}
	Touch(s)
	if s[0] != 1 || s[2] != 3 {
		t.Fatalf("Touch wrote into a small slice: %v", s)
	}
}
