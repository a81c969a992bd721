package train

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestFieldSpool: the fields fitted from a spool on disk are those
// FitFieldsNB fits from the records in memory, bit for bit, with missing
// values of both sorts and labels first seen out of order; and a
// categorical or Gaussian model from the spool is FitRecords'.
func TestFieldSpool(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	spec := FieldSpec{Categorical: []string{"colour", "size"}, Numeric: []string{"x", "y"}}
	classes := []string{"a", "b", "c"}
	r := &Records{Spec: spec}
	var y []int
	s, err := NewFieldSpool(spec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 500 {
		c := (i*7 + 2) % 3 // "c" comes first
		if i > 10 {
			c = rng.IntN(3)
		}
		rec := model.Record{Cat: []string{[]string{"", "red", "blue", "green"}[rng.IntN(4)], []string{"S", "M", "L"}[rng.IntN(3)]}}
		rec.Num = []float64{float64(c) + rng.NormFloat64(), math.NaN()}
		if rng.IntN(5) > 0 {
			rec.Num[1] = 1e6 * rng.Float64()
		}
		if i%50 == 0 {
			rec.Cat, rec.Num = rec.Cat[:1], rec.Num[:1] // fewer values: the others missing
		}
		r.Recs = append(r.Recs, rec)
		y = append(y, c)
		if err := s.Add(classes[c], rec); err != nil {
			t.Fatal(err)
		}
	}
	p := model.Params{FieldAlpha: 1, VarSmoothing: 1e-9}
	want, err := FitFieldsNB(r, y, len(classes), p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FitFieldsStream(s, classes, p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields from the spool\n%+v\nwant\n%+v", got, want)
	}
	if got := s.Labels(); !reflect.DeepEqual(got, classes) {
		t.Errorf("Labels() = %v, want %v", got, classes)
	}
	for _, kind := range []model.Kind{model.Categorical, model.Gaussian} {
		sp := spec
		if kind == model.Categorical {
			sp.Numeric = nil
		} else {
			sp.Categorical = nil
		}
		rs, err := NewFieldSpool(sp)
		if err != nil {
			t.Fatal(err)
		}
		rr := &Records{Spec: sp}
		for i, rec := range r.Recs {
			if kind == model.Categorical {
				rec.Num = nil
			} else {
				rec.Cat = nil
			}
			rr.Recs = append(rr.Recs, rec)
			if err := rs.Add(classes[y[i]], rec); err != nil {
				t.Fatal(err)
			}
		}
		want, err := FitRecords(kind, rr, y, classes, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FitRecordsStream(kind, rs, p)
		rs.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the model from the spool differs from FitRecords'", kind)
		}
	}
}
