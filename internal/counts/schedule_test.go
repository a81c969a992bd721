package counts

import (
	"slices"
	"testing"
)

// TestSchedule: the schedule hands out every chunk once; a partition's
// items go to one worker until the workers help each other at the end;
// the shares are about equal with even classes, and a worker whose own
// share is small helps with a skewed partition.
func TestSchedule(t *testing.T) {
	seg := func(sizes map[int][]int64) segment {
		var s segment
		var off int64
		for p, ns := range sizes {
			for _, n := range ns {
				s.chunks[p] = append(s.chunks[p], chunk{off: off, n: n})
				off += n
			}
		}
		return s
	}
	even := map[int][]int64{}
	for p := range cacheParts {
		even[p] = slices.Repeat([]int64{1 << 20}, 10) // 10 MiB a partition: 3 items each
	}
	skewed := map[int][]int64{0: slices.Repeat([]int64{1 << 20}, 90), 1: slices.Repeat([]int64{1 << 20}, 10)}
	for name, sizes := range map[string]map[int][]int64{"even": even, "skewed": skewed} {
		segs := []segment{seg(sizes), seg(sizes)}
		s := newSchedule(segs, 2)
		owner := map[int]int{} // partition → the worker of its first items
		done := [2]int64{}
		seen := map[int64]int{} // chunk offset per segment → times handed out
		for turn := 0; ; turn++ {
			w := turn % 2
			it, ok := s.next(w)
			if !ok {
				if _, ok := s.next(1 - w); ok {
					t.Fatalf("%s: worker %d found nothing while worker %d did", name, w, 1-w)
				}
				break
			}
			if len(it.chunks) == 0 || it.bytes > replayItemBytes && len(it.chunks) > 1 {
				t.Errorf("%s: an item of %d chunks, %d bytes", name, len(it.chunks), it.bytes)
			}
			if o, ok := owner[it.part]; !ok {
				owner[it.part] = w
			} else if o != w && s.left[o] > 0 && len(s.own[w]) > 0 {
				t.Errorf("%s: partition %d went to workers %d and %d while both had their own items", name, it.part, o, w)
			}
			si := 0
			if it.seg == &segs[1] {
				si = 1
			}
			for _, ch := range it.chunks {
				seen[int64(si)<<40|ch.off]++
				done[w] += ch.n
			}
		}
		want := 0
		for _, ns := range sizes {
			want += 2 * len(ns)
		}
		if len(seen) != want {
			t.Errorf("%s: %d chunks handed out, want %d", name, len(seen), want)
		}
		for k, n := range seen {
			if n != 1 {
				t.Errorf("%s: chunk %x handed out %d times", name, k, n)
			}
		}
		if lo, hi := min(done[0], done[1]), max(done[0], done[1]); float64(hi) > 1.1*float64(lo) {
			t.Errorf("%s: shares %d and %d bytes", name, done[0], done[1])
		}
	}
}
