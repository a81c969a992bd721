package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// synthCorpus returns n documents per class over nClasses classes: each
// document mixes class words ("c<k>w<j>") with shared words ("common<j>")
// and rare noise words, so that the classes are learnable but not
// trivially separable. It is deterministic for a seed.
func synthCorpus(nClasses, perClass int, seed uint64) (texts []string, y []int, classes []string) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for c := range nClasses {
		classes = append(classes, fmt.Sprintf("class%d", c))
	}
	for i := range perClass * nClasses {
		c := i % nClasses
		var words []string
		for range 8 + rng.IntN(20) {
			switch u := rng.Float64(); {
			case u < 0.30:
				words = append(words, fmt.Sprintf("c%dw%d", c, rng.IntN(15)))
			case u < 0.40:
				words = append(words, fmt.Sprintf("c%dw%d", rng.IntN(nClasses), rng.IntN(15)))
			case u < 0.95:
				words = append(words, fmt.Sprintf("common%d", rng.IntN(40)))
			default:
				words = append(words, fmt.Sprintf("noise%d", rng.IntN(2000)))
			}
		}
		texts = append(texts, strings.Join(words, " "))
		y = append(y, c)
	}
	return texts, y, classes
}
