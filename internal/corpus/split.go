package corpus

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// byClass groups document indices by label id, each group in index order.
func byClass(y []int) [][]int {
	maxLabel := -1
	for _, c := range y {
		if c > maxLabel {
			maxLabel = c
		}
	}
	groups := make([][]int, maxLabel+1)
	for i, c := range y {
		groups[c] = append(groups[c], i)
	}
	return groups
}

// StratifiedKFold splits the documents with label ids y into k folds whose
// class proportions match the whole, shuffled with seed. It returns the
// held-out indices of each fold, each sorted ascending. The result depends
// only on y, k and seed. It fails when k < 2 or k exceeds the number of
// documents.
func StratifiedKFold(y []int, k int, seed uint64) ([][]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("folds must be at least 2, got %d", k)
	}
	if k > len(y) {
		return nil, fmt.Errorf("folds (%d) exceed the number of documents (%d)", k, len(y))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e62746578740001))
	folds := make([][]int, k)
	next := 0 // deal classes round-robin, continuing where the last class stopped, so fold sizes differ by at most one
	for _, g := range byClass(y) {
		g = append([]int(nil), g...)
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		for _, idx := range g {
			folds[next] = append(folds[next], idx)
			next = (next + 1) % k
		}
	}
	for _, f := range folds {
		sort.Ints(f)
	}
	return folds, nil
}

// Complement returns the indices in [0, n) that are not in held (which must
// be sorted ascending): the training part of a fold.
func Complement(n int, held []int) []int {
	out := make([]int, 0, n-len(held))
	j := 0
	for i := 0; i < n; i++ {
		if j < len(held) && held[j] == i {
			j++
			continue
		}
		out = append(out, i)
	}
	return out
}

// Pick returns the elements of xs at the indices idx, in idx's order: the
// labels or texts of a fold's rows.
func Pick[T any](xs []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

// StratifiedSubset draws m document indices from y without replacement, with
// class proportions as close to the whole as rounding allows and at least one
// document of every class when m is at least the number of classes. The
// indices are sorted ascending. m larger than len(y) is clamped; m <= 0
// gives none.
func StratifiedSubset(y []int, m int, rng *rand.Rand) []int {
	if m <= 0 {
		return []int{}
	}
	if m >= len(y) {
		all := make([]int, len(y))
		for i := range all {
			all[i] = i
		}
		return all
	}
	groups := byClass(y)
	// Largest-remainder apportionment of m over the classes.
	quota := make([]int, len(groups))
	type rem struct {
		c    int
		frac float64
	}
	rems := make([]rem, 0, len(groups))
	given := 0
	for c, g := range groups {
		exact := float64(m) * float64(len(g)) / float64(len(y))
		quota[c] = int(exact)
		given += quota[c]
		rems = append(rems, rem{c, exact - float64(quota[c])})
	}
	sort.SliceStable(rems, func(i, j int) bool { return rems[i].frac > rems[j].frac })
	for i := 0; given < m; i = (i + 1) % len(rems) {
		if c := rems[i].c; quota[c] < len(groups[c]) {
			quota[c]++
			given++
		}
	}
	// Every class present when there is room: move one from the largest quota.
	if m >= len(groups) {
		for c, g := range groups {
			if quota[c] == 0 && len(g) > 0 {
				big := 0
				for d := range quota {
					if quota[d] > quota[big] {
						big = d
					}
				}
				if quota[big] > 1 {
					quota[big]--
					quota[c]++
				}
			}
		}
	}
	out := make([]int, 0, m)
	for c, g := range groups {
		perm := rng.Perm(len(g))
		for _, p := range perm[:quota[c]] {
			out = append(out, g[p])
		}
	}
	sort.Ints(out)
	return out
}

// PerClass draws up to n document indices of each class from the label
// ids y, without replacement (every document of a class with fewer), and
// returns them sorted ascending with the indices left out, also
// ascending: a labelled sample of n documents per class and the rest. The
// draw depends only on y, n and rng's state. n ≤ 0 keeps none.
func PerClass(y []int, n int, rng *rand.Rand) (keep, rest []int) {
	keep = []int{}
	if n > 0 {
		for _, g := range byClass(y) {
			perm := rng.Perm(len(g))
			for _, p := range perm[:min(n, len(g))] {
				keep = append(keep, g[p])
			}
		}
	}
	sort.Ints(keep)
	return keep, Complement(len(y), keep)
}
