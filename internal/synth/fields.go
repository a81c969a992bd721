package synth

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// FieldConfig describes the record fields Fields adds to labelled
// documents, the construction of "Records with fields" (docs/records.md):
// an informative categorical field that names its class's value with
// probability Accuracy and another class's value otherwise, drawn
// independently of the text given the class; a pure-noise categorical
// field, uniform over NoiseValues values whatever the class; and a numeric
// field, the number of characters of the text. The two categorical fields
// draw from random streams of their own (both seeded with Seed), so adding
// or dropping one never changes the other's values.
type FieldConfig struct {
	Seed        uint64
	Values      []string // the informative field's value of each class, by class id
	Accuracy    float64  // P(value = Values[class]), in [0, 1]
	NoiseValues int      // values of the noise field (default 4)
}

// Fields draws the record fields of documents, one at a time, in order.
type Fields struct {
	cfg         FieldConfig
	vendor, rnd *rand.Rand
}

// NewFields returns a Fields for cfg.
func NewFields(cfg FieldConfig) (*Fields, error) {
	if cfg.NoiseValues == 0 {
		cfg.NoiseValues = 4
	}
	switch {
	case len(cfg.Values) < 2:
		return nil, fmt.Errorf("need a value for each of at least 2 classes, got %d", len(cfg.Values))
	case !(cfg.Accuracy >= 0 && cfg.Accuracy <= 1):
		return nil, errors.New("the accuracy must be in [0, 1]")
	case cfg.NoiseValues < 1:
		return nil, fmt.Errorf("the noise field needs ≥ 1 value, got %d", cfg.NoiseValues)
	}
	return &Fields{
		cfg:    cfg,
		vendor: rand.New(rand.NewPCG(cfg.Seed, 0x5eed0001)),
		rnd:    rand.New(rand.NewPCG(cfg.Seed, 0x5eed0002)),
	}, nil
}

// Next returns the fields of the next document, of class id class and
// text text: the informative value, the noise value ("n0", "n1", …) and
// the length in characters (runes) as a decimal string. Each call takes
// one or two draws of the informative field's stream and one of the noise
// field's.
func (f *Fields) Next(class int, text string) (informative, noise, length string) {
	v := f.cfg.Values
	informative = v[class]
	if f.vendor.Float64() >= f.cfg.Accuracy {
		// A wrong value: one of the other classes', uniformly.
		k := f.vendor.IntN(len(v) - 1)
		if k >= class {
			k++
		}
		informative = v[k]
	}
	noise = "n" + strconv.Itoa(f.rnd.IntN(f.cfg.NoiseValues))
	return informative, noise, strconv.Itoa(len([]rune(text)))
}
