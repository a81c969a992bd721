package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseCosts parses the value of --costs, "label=λ,label=λ,...", into one
// loss weight per class of classes, for Decide: λ_y is what missing class
// y costs. Classes not listed get λ = 1; "" gives nil (the MAP decision).
// Each λ must be a finite number > 0, each label a known class, listed
// once.
func ParseCosts(s string, classes []string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	id := make(map[string]int, len(classes))
	for i, c := range classes {
		id[c] = i
	}
	costs := make([]float64, len(classes))
	for i := range costs {
		costs[i] = 1
	}
	seen := make(map[string]bool)
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		eq := strings.LastIndexByte(part, '=')
		if eq < 0 {
			return nil, fmt.Errorf("--costs: %q is not label=weight", part)
		}
		label, num := strings.TrimSpace(part[:eq]), strings.TrimSpace(part[eq+1:])
		c, ok := id[label]
		if !ok {
			return nil, fmt.Errorf("--costs: unknown class %q (the model's classes are %s)", label, strings.Join(classes, ", "))
		}
		if seen[label] {
			return nil, fmt.Errorf("--costs: class %q given twice", label)
		}
		seen[label] = true
		x, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return nil, fmt.Errorf("--costs: weight of %q: invalid number %q", label, num)
		}
		if !(x > 0) || math.IsInf(x, 1) {
			return nil, fmt.Errorf("--costs: weight of %q must be a finite number > 0, got %v", label, x)
		}
		costs[c] = x
	}
	return costs, nil
}
