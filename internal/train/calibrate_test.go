package train

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// calibData is a noisy synthetic problem cut in two: the first n rows to
// train on, the last n to measure on, weighted as kind's defaults say.
func calibData(t *testing.T, kind model.Kind, n int) (Xtr *vectorize.Matrix, ytr []int, Xte *vectorize.Matrix, yte []int, classes []string, vocab *vectorize.Vocabulary, p model.Params) {
	t.Helper()
	s, p := Defaults(kind)
	syn := makeSynthetic(t, 2*n, 600, 4, 0.25, 3)
	X, vocab := syn.weighted(t, s.Weighting, s.Sublinear, s.Norm)
	first, last := make([]int, n), make([]int, n)
	for i := range n {
		first[i], last[i] = i, n+i
	}
	return X.Subset(first), syn.Y[:n], X.Subset(last), syn.Y[n:], syn.Classes, vocab, p
}

// meanLogLoss is eval's log-loss: the mean of -log P(y|x), P clipped to
// [eps, 1-eps]. It also returns every prediction.
func meanLogLoss(m *model.Model, X *vectorize.Matrix, y []int) (float64, []int) {
	const eps = 2.220446049250313e-16
	s := m.NewScorer()
	pred := make([]int, len(y))
	ll := 0.0
	for i, c := range y {
		p := s.Predict(X.Row(i))
		pred[i] = p.Class
		ll -= max(math.Log(eps), min(math.Log1p(-eps), p.LogProbs[c]))
	}
	return ll / float64(len(y)), pred
}

// TestCalibrateNB checks, for every NB kind, that the calibrated model
// makes the same decisions as the counted one (scores are only scaled),
// that its weights are exactly τ times the counted ones, and that τ lowers
// the log-loss on documents neither fit saw.
func TestCalibrateNB(t *testing.T) {
	for _, kind := range []model.Kind{model.Complement, model.Bernoulli, model.Multinomial} {
		Xtr, ytr, Xte, yte, classes, vocab, p := calibData(t, kind, 1200)
		// Rennie's weight normalisation (no longer complement's default)
		// is what makes its raw probabilities near uniform (below).
		p.NoWeightNorm = false
		raw, err := Fit(kind, Xtr, ytr, classes, vocab, p, Options{NoCalibrate: true})
		if err != nil {
			t.Fatal(err)
		}
		cal, err := CalibrateNB(kind, Xtr, ytr, classes, vocab, p, 0)
		if err != nil {
			t.Fatal(err)
		}
		if cal.Skipped != "" || cal.FoldsUsed != DefaultFolds || cal.Docs != len(ytr) {
			t.Fatalf("%s: calibration %+v, want all %d folds and %d documents", kind, cal, DefaultFolds, len(ytr))
		}
		if !(cal.LogLoss < cal.LogLoss1) {
			t.Errorf("%s: held-out log-loss %g at τ = %g, %g at τ = 1", kind, cal.LogLoss, cal.Temperature, cal.LogLoss1)
		}
		m := &model.Model{}
		*m = *raw
		m.W, m.B = slices.Clone(raw.W), slices.Clone(raw.B)
		if err := applyTemperature(m, cal.Temperature); err != nil {
			t.Fatal(err)
		}
		for i, w := range raw.W {
			if m.W[i] != w*cal.Temperature {
				t.Fatalf("%s: W[%d] = %v, want %v·%v", kind, i, m.W[i], cal.Temperature, w)
			}
		}
		llRaw, predRaw := meanLogLoss(raw, Xte, yte)
		ll, pred := meanLogLoss(m, Xte, yte)
		t.Logf("%s: τ = %.4g, cross-fitted log-loss %.4f → %.4f, test log-loss %.4f → %.4f", kind, cal.Temperature, cal.LogLoss1, cal.LogLoss, llRaw, ll)
		if !slices.Equal(pred, predRaw) {
			t.Errorf("%s: calibration changed test decisions", kind)
		}
		if _, trPred := meanLogLoss(m, Xtr, ytr); !slices.Equal(trPred, predictions(raw, Xtr)) {
			t.Errorf("%s: calibration changed training decisions", kind)
		}
		if !(ll < llRaw) {
			t.Errorf("%s: test log-loss %.4f with τ = %g, %.4f without", kind, ll, cal.Temperature, llRaw)
		}
		if kind == model.Complement && !(llRaw > math.Log(4)-0.01 && ll < 0.9*llRaw) {
			t.Errorf("complement: test log-loss %.4f → %.4f, want from about ln 4 to clearly below", llRaw, ll)
		}
	}
}

func predictions(m *model.Model, X *vectorize.Matrix) []int {
	s := m.NewScorer()
	out := make([]int, X.Rows())
	for i := range out {
		out[i] = s.Predict(X.Row(i)).Class
	}
	return out
}

// TestFitCalibrated checks that Fit calibrates the kinds DefaultCalibrate
// names, that FitCalibrated reports it, and that NoCalibrate turns it off.
func TestFitCalibrated(t *testing.T) {
	for _, kind := range []model.Kind{model.Complement, model.Bernoulli, model.Multinomial} {
		X, y, _, _, classes, vocab, p := calibData(t, kind, 400)
		raw, err := FitNB(kind, X, y, classes, vocab, p)
		if err != nil {
			t.Fatal(err)
		}
		m, cal, err := FitCalibrated(kind, X, y, classes, vocab, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Fit(kind, X, y, classes, vocab, p, Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.W, m2.W) || !slices.Equal(m.B, m2.B) {
			t.Errorf("%s: Fit and FitCalibrated differ", kind)
		}
		if !DefaultCalibrate(kind) {
			if cal != nil || !slices.Equal(m.W, raw.W) {
				t.Errorf("%s: calibrated (%+v) although DefaultCalibrate is false", kind, cal)
			}
			continue
		}
		if cal == nil || cal.Skipped != "" || cal.Temperature == 1 {
			t.Fatalf("%s: calibration %+v", kind, cal)
		}
		if m.W[0] != raw.W[0]*cal.Temperature || m.B[0] != raw.B[0]*cal.Temperature {
			t.Errorf("%s: weights not scaled by τ = %g", kind, cal.Temperature)
		}
		m3, cal3, err := FitCalibrated(kind, X, y, classes, vocab, p, Options{NoCalibrate: true})
		if err != nil || cal3 != nil || !slices.Equal(m3.W, raw.W) || !slices.Equal(m3.B, raw.B) {
			t.Errorf("%s: NoCalibrate gave calibration %+v (error %v)", kind, cal3, err)
		}
	}
}

// TestCalibrateDeterministic: τ does not depend on the number of workers.
func TestCalibrateDeterministic(t *testing.T) {
	for _, kind := range []model.Kind{model.Complement, model.Bernoulli} {
		X, y, _, _, classes, vocab, p := calibData(t, kind, 1500)
		var want *Calibration
		for _, w := range []int{1, 2, 4} {
			cal, err := CalibrateNB(kind, X, y, classes, vocab, p, w)
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = cal
			} else if *cal != *want {
				t.Errorf("%s: %d workers: %+v, 1 worker: %+v", kind, w, *cal, *want)
			}
		}
		p.Seed++
		if cal, _ := CalibrateNB(kind, X, y, classes, vocab, p, 0); cal.Temperature == want.Temperature {
			t.Errorf("%s: seed %d gives the same τ %v as seed %d: folds not seeded by p.Seed", kind, p.Seed, cal.Temperature, p.Seed-1)
		}
	}
}

// TestCalibrateSkips: models the calibration leaves alone still fit.
func TestCalibrateSkips(t *testing.T) {
	X, y, _, _, classes, vocab, p := calibData(t, model.Bernoulli, 300)
	for _, tc := range []struct {
		name string
		kind model.Kind
		edit func(*model.Params)
		n    int
	}{
		{"bernoulli alpha 0", model.Bernoulli, func(p *model.Params) { p.Alpha, p.Beta = 0, 0 }, 300},
		{"complement alpha 0", model.Complement, func(p *model.Params) { p.Alpha = 0 }, 300},
		{"given prior of 0", model.Bernoulli, func(p *model.Params) { p.Prior, p.Priors = "given", []float64{0, 0.5, 0.25, 0.25} }, 300},
		{"too few documents", model.Complement, nil, 9},
	} {
		q := p
		q.Alpha = 0.1
		if tc.edit != nil {
			tc.edit(&q)
		}
		Xs := X.Subset(seq(tc.n))
		m, cal, err := FitCalibrated(tc.kind, Xs, y[:tc.n], classes, vocab, q, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		raw, _ := FitNB(tc.kind, Xs, y[:tc.n], classes, vocab, q)
		if cal == nil || cal.Skipped == "" || cal.Temperature != 1 || !slices.Equal(m.W, raw.W) {
			t.Errorf("%s: calibration %+v, want skipped and the model as counted", tc.name, cal)
		}
		t.Logf("%s: %s", tc.name, cal.Skipped)
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestTemperatureMinimize checks the search on scores whose optimum is
// known: every document scores its two classes 0 and -δ, and a fraction q
// of them belongs to the first, so P(first) = σ(τδ) must equal q: τ =
// logit(q)/δ, whatever the scale δ of the scores. Separable and
// uninformative scores have no optimum.
func TestTemperatureMinimize(t *testing.T) {
	for _, delta := range []float64{1e-6, 1, 300} {
		for _, q := range []float64{0.55, 0.8, 0.99} {
			var s []float64
			var y []int
			for i := range 1000 {
				s = append(s, 0, -delta)
				y = append(y, 0)
				if i >= int(q*1000+0.5) {
					y[i] = 1
				}
			}
			o := newTempObjective(s, y, 2, 2)
			tau, L, why := o.minimize()
			want := math.Log(q/(1-q)) / delta
			if why != "" || math.Abs(tau-want) > 1e-6*want {
				t.Errorf("δ = %g, q = %g: τ = %v (%s), want %v", delta, q, tau, why, want)
			}
			if wantL := -q*math.Log(q) - (1-q)*math.Log(1-q); math.Abs(L-wantL) > 1e-9 {
				t.Errorf("δ = %g, q = %g: L = %v, want %v", delta, q, L, wantL)
			}
		}
	}
	for _, tc := range []struct {
		name string
		s    []float64
		y    []int
	}{
		{"separable", []float64{0, -1, -1, 0, 0, -2}, []int{0, 1, 0}},
		{"uninformative", []float64{0, 0, 5, 5}, []int{0, 1}},
		{"wrong way round", []float64{0, -1, -1, 0}, []int{1, 0}},
	} {
		if tau, _, why := newTempObjective(tc.s, tc.y, 2, 1).minimize(); why == "" {
			t.Errorf("%s: τ = %v, want no temperature", tc.name, tau)
		}
	}
}

// TestTemperatureObjective compares L, L' and L″ with a direct
// evaluation and finite differences, including a class that scores -Inf
// and a document left out for its own -Inf score.
func TestTemperatureObjective(t *testing.T) {
	inf := math.Inf(-1)
	s := []float64{
		0.3, -1.2, 2.0,
		inf, 0.5, 0.1,
		1.0, 1.0, -3.0,
		inf, 2.0, 1.0, // left out: its class 0 scores -Inf
	}
	y := []int{2, 1, 0, 0}
	o := newTempObjective(s, y, 3, 1)
	if o.docs() != 3 {
		t.Fatalf("%d documents in the objective, want 3", o.docs())
	}
	direct := func(tau float64) float64 {
		L := 0.0
		for i := range 3 {
			z := 0.0
			for _, v := range s[i*3 : i*3+3] {
				if v > inf {
					z += math.Exp(tau * v)
				}
			}
			L += math.Log(z) - tau*s[i*3+y[i]]
		}
		return L / 3
	}
	for _, tau := range []float64{0.01, 0.5, 1, 3} {
		L, g, h := o.eval(tau)
		const e = 1e-5
		if math.Abs(L-direct(tau)) > 1e-12 {
			t.Errorf("L(%g) = %v, direct %v", tau, L, direct(tau))
		}
		if fd := (direct(tau+e) - direct(tau-e)) / (2 * e); math.Abs(g-fd) > 1e-7 {
			t.Errorf("L'(%g) = %v, finite difference %v", tau, g, fd)
		}
		if fd := (direct(tau+e) - 2*direct(tau) + direct(tau-e)) / (e * e); math.Abs(h-fd) > 1e-4 {
			t.Errorf("L″(%g) = %v, finite difference %v", tau, h, fd)
		}
	}
}

// TestApplyTemperature: τ must be positive and finite, and a positive
// factor keeps infinite weights as they are.
func TestApplyTemperature(t *testing.T) {
	inf := math.Inf(1)
	m := &model.Model{W: []float64{1, -inf, inf, 0}, B: []float64{-2, -inf}}
	for _, tau := range []float64{0, -1, math.NaN(), inf} {
		if err := applyTemperature(m, tau); err == nil {
			t.Errorf("τ = %v accepted", tau)
		}
	}
	if err := applyTemperature(m, 1e308); err == nil {
		t.Error("overflowing τ accepted")
	}
	if err := applyTemperature(m, 0.5); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.W, []float64{0.5, -inf, inf, 0}) || !slices.Equal(m.B, []float64{-1, -inf}) {
		t.Errorf("scaled by 0.5: W %v, B %v", m.W, m.B)
	}
}

// TestCalibratedModelFile: the temperature is a training parameter: the
// calibrated model is what model.NewNB builds with it, and it survives a
// save and load, which recomputes the NB weights from the counts. A given
// temperature is applied as it is, without a search.
func TestCalibratedModelFile(t *testing.T) {
	for _, kind := range []model.Kind{model.Complement, model.Bernoulli} {
		X, y, _, _, classes, vocab, p := calibData(t, kind, 400)
		m, cal, err := FitCalibrated(kind, X, y, classes, vocab, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Params.Temperature != cal.Temperature || cal.Temperature == 1 {
			t.Fatalf("%s: Params.Temperature %v, calibration %+v", kind, m.Params.Temperature, cal)
		}
		want, err := model.NewNB(kind, classes, vocab, m.Params, m.ClassDocs, m.Counts)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := model.Encode(&buf, m); err != nil {
			t.Fatal(err)
		}
		back, err := model.Decode(&buf, "calibrated.nbm")
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range []*model.Model{want, back} {
			if !slices.Equal(got.W, m.W) || !slices.Equal(got.B, m.B) || got.Params.Temperature != cal.Temperature {
				t.Errorf("%s: weights differ from the calibrated model's", kind)
			}
		}
		q := p
		q.Temperature = 2
		m2, cal2, err := FitCalibrated(kind, X, y, classes, vocab, q, Options{})
		raw, _ := FitNB(kind, X, y, classes, vocab, p)
		if err != nil || cal2 != nil || m2.W[0] != 2*raw.W[0] {
			t.Errorf("%s: a given temperature: calibration %+v, W[0] %v, want 2·%v (error %v)", kind, cal2, m2.W[0], raw.W[0], err)
		}
		if cal3, _ := CalibrateNB(kind, X, y, classes, vocab, q, 0); cal3.Temperature != cal.Temperature {
			t.Errorf("%s: CalibrateNB depends on p.Temperature: %v, %v", kind, cal3.Temperature, cal.Temperature)
		}
	}
}
