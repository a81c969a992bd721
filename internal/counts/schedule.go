package counts

import (
	"cmp"
	"slices"
	"sync"
)

// replayItem is a piece of round two's replay: consecutive chunks of one
// partition of one segment of the row cache.
type replayItem struct {
	seg    *segment
	part   int
	chunks []chunk
	bytes  int64
}

// replayItemBytes bounds the cache bytes of an item, so that a worker
// done with its own items helps with the others' in small steps.
const replayItemBytes = 4 << 20

// schedule hands round two's items to the workers. The partitions are
// shared out among the workers, the largest first, each to the worker with
// the fewest bytes so far (LPT): a class's rows then go to one worker, so
// its column of cells is in one worker's table, not in each (memory), and
// the workers' shares are about equal. A worker done with its own items
// takes the last item of the worker with the most bytes left, so skewed
// classes (a partition larger than a fair share) still keep every worker
// busy. Which worker counts which rows does not change the counts.
type schedule struct {
	mu   sync.Mutex
	own  [][]replayItem // by worker, in order
	left []int64        // by worker, the bytes of its items not yet taken
}

// newSchedule shares the partitions of segs out among n workers.
func newSchedule(segs []segment, n int) *schedule {
	var size [cacheParts]int64
	for i := range segs {
		for p, chunks := range segs[i].chunks {
			for _, ch := range chunks {
				size[p] += ch.n
			}
		}
	}
	parts := make([]int, cacheParts)
	for p := range parts {
		parts[p] = p
	}
	slices.SortStableFunc(parts, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	s := &schedule{own: make([][]replayItem, n), left: make([]int64, n)}
	owner := make([]int, cacheParts)
	for _, p := range parts {
		owner[p] = int(slices.Index(s.left, slices.Min(s.left)))
		s.left[owner[p]] += size[p]
	}
	clear(s.left)
	for i := range segs {
		seg := &segs[i]
		for p, chunks := range seg.chunks {
			for len(chunks) > 0 {
				it := replayItem{seg: seg, part: p}
				k := 0
				for k < len(chunks) && (k == 0 || it.bytes+chunks[k].n <= replayItemBytes) {
					it.bytes += chunks[k].n
					k++
				}
				it.chunks, chunks = chunks[:k], chunks[k:]
				w := owner[p]
				s.own[w] = append(s.own[w], it)
				s.left[w] += it.bytes
			}
		}
	}
	return s
}

// next returns the next item for worker w, and false when none is left.
func (s *schedule) next(w int) (replayItem, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := s.own[w]; len(q) > 0 {
		s.own[w], s.left[w] = q[1:], s.left[w]-q[0].bytes
		return q[0], true
	}
	v := 0
	for i, b := range s.left {
		if b > s.left[v] {
			v = i
		}
	}
	q := s.own[v]
	if len(q) == 0 {
		return replayItem{}, false
	}
	it := q[len(q)-1]
	s.own[v], s.left[v] = q[:len(q)-1], s.left[v]-it.bytes
	return it, true
}
