package corpus

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// labelsOf returns label ids with sizes[c] documents of class c.
func labelsOf(sizes ...int) []int {
	var y []int
	for c, n := range sizes {
		for range n {
			y = append(y, c)
		}
	}
	// Interleave deterministically so classes are not contiguous.
	r := rand.New(rand.NewPCG(7, 7))
	r.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
	return y
}

func TestStratifiedKFold(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
		k     int
	}{
		{"balanced", []int{10, 10, 10}, 5},
		{"unbalanced", []int{17, 5, 1, 9}, 4},
		{"class smaller than k", []int{2, 30}, 5},
		{"k equals n", []int{2, 1}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := labelsOf(tt.sizes...)
			folds, err := StratifiedKFold(y, tt.k, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(folds) != tt.k {
				t.Fatalf("%d folds, want %d", len(folds), tt.k)
			}
			seen := make([]int, len(y))
			minSize, maxSize := len(y), 0
			for _, f := range folds {
				if !sort.IntsAreSorted(f) {
					t.Errorf("fold not sorted: %v", f)
				}
				minSize, maxSize = min(minSize, len(f)), max(maxSize, len(f))
				perClass := make([]int, len(tt.sizes))
				for _, i := range f {
					seen[i]++
					perClass[y[i]]++
				}
				for c, n := range perClass {
					// Each class is dealt round-robin: floor or ceil of size/k.
					lo, hi := tt.sizes[c]/tt.k, (tt.sizes[c]+tt.k-1)/tt.k
					if n < lo || n > hi {
						t.Errorf("class %d: %d in a fold, want %d..%d", c, n, lo, hi)
					}
				}
			}
			for i, n := range seen {
				if n != 1 {
					t.Errorf("document %d in %d folds", i, n)
				}
			}
			if maxSize-minSize > 1 {
				t.Errorf("fold sizes from %d to %d", minSize, maxSize)
			}
			again, _ := StratifiedKFold(y, tt.k, 1)
			if !reflect.DeepEqual(folds, again) {
				t.Error("same seed, different folds")
			}
		})
	}
	y := labelsOf(50, 50)
	a, _ := StratifiedKFold(y, 5, 1)
	b, _ := StratifiedKFold(y, 5, 2)
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 1 and 2 give the same folds")
	}
	for _, k := range []int{1, 0, 101} {
		if _, err := StratifiedKFold(y, k, 1); err == nil {
			t.Errorf("k=%d: no error", k)
		}
	}
}

func TestComplement(t *testing.T) {
	tests := []struct {
		n    int
		held []int
		want []int
	}{
		{5, []int{1, 3}, []int{0, 2, 4}},
		{3, nil, []int{0, 1, 2}},
		{3, []int{0, 1, 2}, []int{}},
		{4, []int{0, 3}, []int{1, 2}},
	}
	for _, tt := range tests {
		if got := Complement(tt.n, tt.held); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Complement(%d, %v) = %v, want %v", tt.n, tt.held, got, tt.want)
		}
	}
	// A fold and its complement partition the documents.
	y := labelsOf(7, 8, 9)
	folds, _ := StratifiedKFold(y, 3, 3)
	for _, f := range folds {
		all := append(append([]int(nil), f...), Complement(len(y), f)...)
		sort.Ints(all)
		for i, v := range all {
			if i != v {
				t.Fatalf("fold and complement do not partition: %v", all)
			}
		}
	}
}

func TestStratifiedSubset(t *testing.T) {
	count := func(y, idx []int, classes int) []int {
		n := make([]int, classes)
		for _, i := range idx {
			n[y[i]]++
		}
		return n
	}
	tests := []struct {
		name  string
		sizes []int
		m     int
		want  []int // per class
	}{
		{"exact proportions", []int{50, 30, 20}, 10, []int{5, 3, 2}},
		{"largest remainder", []int{5, 3, 2}, 4, []int{2, 1, 1}}, // 2.0, 1.2, 0.8
		{"every class kept", []int{97, 1, 2}, 5, []int{3, 1, 1}}, // 4.85, 0.05, 0.1
		{"fewer than classes", []int{97, 1, 2}, 2, []int{2, 0, 0}},
		{"all", []int{3, 4}, 7, []int{3, 4}},
		{"more than all", []int{3, 4}, 100, []int{3, 4}},
		{"none", []int{3, 4}, 0, []int{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := labelsOf(tt.sizes...)
			idx := StratifiedSubset(y, tt.m, rand.New(rand.NewPCG(1, 1)))
			if !sort.IntsAreSorted(idx) {
				t.Errorf("not sorted: %v", idx)
			}
			for i := 1; i < len(idx); i++ {
				if idx[i] == idx[i-1] {
					t.Errorf("index %d twice", idx[i])
				}
			}
			if got := count(y, idx, len(tt.sizes)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("per class %v, want %v", got, tt.want)
			}
			again := StratifiedSubset(y, tt.m, rand.New(rand.NewPCG(1, 1)))
			if !reflect.DeepEqual(idx, again) {
				t.Error("same seed, different subset")
			}
		})
	}
	if got := StratifiedSubset([]int{0, 1}, -1, rand.New(rand.NewPCG(1, 1))); len(got) != 0 {
		t.Errorf("m=-1: %v", got)
	}
}

func TestPerClass(t *testing.T) {
	y := []int{0, 1, 0, 2, 1, 0, 0, 1, 2}
	keep, rest := PerClass(y, 2, rand.New(rand.NewPCG(1, 2)))
	if len(keep)+len(rest) != len(y) || !sort.IntsAreSorted(keep) || !sort.IntsAreSorted(rest) {
		t.Fatalf("keep %v rest %v", keep, rest)
	}
	per := map[int]int{}
	for _, i := range keep {
		per[y[i]]++
	}
	if per[0] != 2 || per[1] != 2 || per[2] != 2 {
		t.Fatalf("per class %v from %v", per, keep)
	}
	again, _ := PerClass(y, 2, rand.New(rand.NewPCG(1, 2)))
	if !slices.Equal(keep, again) {
		t.Fatalf("same seed, different draws: %v, %v", keep, again)
	}
	all, none := PerClass(y, 10, rand.New(rand.NewPCG(1, 2)))
	if len(all) != len(y) || len(none) != 0 {
		t.Fatalf("n above every class: keep %v rest %v", all, none)
	}
	if k, r := PerClass(y, 0, rand.New(rand.NewPCG(1, 2))); len(k) != 0 || len(r) != len(y) {
		t.Fatalf("n = 0: keep %v rest %v", k, r)
	}
}
