package predict

import (
	"encoding/json"
	"errors"
	"math"

	"github.com/nbtext/nbtext/internal/model"
)

// errFieldsInput is New's error for a model with record fields read from
// anything but JSONL.
var errFieldsInput = errors.New("the model has record fields: give records with the text and the fields (--input csv, tsv with a header row, or jsonl)")

// recordOf fills r with the fields of m found among the JSONL members of
// rec: a string is taken as is, a number or boolean as its JSON text; a
// missing member, null or a numeric value that is not a number is a
// missing value (skipped by the model).
func recordOf(f *model.Fields, rec *record, r *model.Record) {
	if cap(r.Cat) < len(f.Categorical) {
		r.Cat = make([]string, len(f.Categorical))
	}
	if cap(r.Num) < len(f.Numeric) {
		r.Num = make([]float64, len(f.Numeric))
	}
	r.Cat, r.Num = r.Cat[:len(f.Categorical)], r.Num[:len(f.Numeric)]
	for j, c := range f.Categorical {
		r.Cat[j] = rawValue(rec.extra, c.Name)
	}
	for j, n := range f.Numeric {
		x, err := model.ParseNumeric(rawValue(rec.extra, n.Name))
		if err != nil {
			x = math.NaN()
		}
		r.Num[j] = x
	}
}

// rawValue returns the member key of fs as text ("" when absent or null).
func rawValue(fs []field, key string) string {
	for _, fl := range fs {
		if fl.key != key {
			continue
		}
		var s string
		if json.Unmarshal(fl.raw, &s) == nil {
			return s
		}
		if string(fl.raw) == "null" {
			return ""
		}
		return string(fl.raw)
	}
	return ""
}

// explainFields appends to expl the contribution of each present field
// of r to the log-odds of class against its strongest rival by logProbs.
func explainFields(expl []model.Contribution, sc *model.Scorer, r model.Record, class int, logProbs []float64) []model.Contribution {
	against := -1
	for c, x := range logProbs {
		if c != class && (against < 0 || x > logProbs[against]) {
			against = c
		}
	}
	return append(expl, sc.ExplainFields(r, class, against)...)
}
