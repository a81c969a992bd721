package train

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
)

// ClassWeights resolves a --class-weight spec for the classes of a training
// set whose class c has sizes[c] documents (ClassSizes; nil for none):
// "" gives nil (every weight 1); "balanced" gives class c the weight
// n / (C·n_c), n documents and n_c of class c, as
// scikit-learn's class_weight="balanced" (a class without documents gets
// 1), so that every class weighs as much in total; "label=w,..." gives the
// listed classes their weight w > 0 and the others 1. An unknown label or a
// weight that is not a finite number > 0 is an error naming the flag.
func ClassWeights(spec string, classes []string, sizes []int) ([]float64, error) {
	switch spec {
	case "":
		return nil, nil
	case "balanced":
		total := 0
		for _, k := range sizes {
			total += k
		}
		w := make([]float64, len(classes))
		for c := range w {
			w[c] = 1
			if c < len(sizes) && sizes[c] > 0 {
				w[c] = float64(total) / (float64(len(classes)) * float64(sizes[c]))
			}
		}
		return w, nil
	}
	w := make([]float64, len(classes))
	for c := range w {
		w[c] = 1
	}
	for _, part := range strings.Split(spec, ",") {
		label, v, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("--class-weight must be balanced or label=w,..., got %q", spec)
		}
		label = strings.TrimSpace(label)
		c := slices.Index(classes, label)
		if c < 0 {
			return nil, fmt.Errorf("--class-weight: unknown class %q (the corpus has %s)", label, strings.Join(classes, ", "))
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f > 0) || math.IsInf(f, 1) {
			return nil, fmt.Errorf("--class-weight: the weight of %q must be a finite number > 0, got %q", label, v)
		}
		w[c] = f
	}
	return w, nil
}

// ClassSizes returns the number of documents of each of nc classes in
// the label ids y.
func ClassSizes(y []int, nc int) []int {
	n := make([]int, nc)
	for _, c := range y {
		n[c]++
	}
	return n
}

// classWeight returns the weight of class c under p (1 without weights).
func classWeight(p model.Params, c int) float64 {
	if p.ClassWeights == nil {
		return 1
	}
	return p.ClassWeights[c]
}
