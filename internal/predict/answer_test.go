package predict

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestAnswererMatchesStream checks that AppendText and AppendJSON write
// the bytes Stream writes for the same documents read as JSONL.
func TestAnswererMatchesStream(t *testing.T) {
	texts := []string{"the car engine", "", "senate tax vote on oil", "rocket orbit\nnasa", "zzz unknown words"}
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.Complement} {
		m := toyModel(t, kind)
		for _, opt := range []Options{
			{Input: InputJSONL, Format: FormatJSON},
			{Input: InputJSONL, Format: FormatJSON, TopK: 2, Explain: 3},
			{Input: InputJSONL, Format: FormatJSON, Threshold: 0.6},
		} {
			var in strings.Builder
			for _, s := range texts {
				b, _ := json.Marshal(map[string]string{"text": s})
				in.Write(append(b, '\n'))
			}
			want := mustStream(t, m, opt, in.String())
			p := newPredictor(t, m, opt)
			a := p.NewAnswerer()
			var got, gotJSON []byte
			for i, s := range texts {
				got, _ = p.AppendText(a, got, i+1, s)
				b, _ := json.Marshal(map[string]string{"text": s})
				var err error
				if gotJSON, _, err = p.AppendJSON(a, gotJSON, "request", i+1, b); err != nil {
					t.Fatal(err)
				}
			}
			if string(got) != want {
				t.Errorf("%v %+v: AppendText\n%s\nwant (Stream)\n%s", kind, opt, got, want)
			}
			if string(gotJSON) != want {
				t.Errorf("%v %+v: AppendJSON\n%s\nwant (Stream)\n%s", kind, opt, gotJSON, want)
			}
		}
	}
}

// TestAnswererBadJSON checks that AppendJSON refuses what the JSONL
// framing refuses, naming the object, and appends nothing.
func TestAnswererBadJSON(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	p := newPredictor(t, m, Options{Input: InputJSONL, Format: FormatJSON})
	a := p.NewAnswerer()
	for _, obj := range []string{`{"id": 3}`, `{"text": 3}`, `[1]`, `{"text": "a"} x`} {
		out, _, err := p.AppendJSON(a, []byte("x"), "records", 2, []byte(obj))
		if err == nil || !strings.HasPrefix(err.Error(), "records:2: ") || string(out) != "x" {
			t.Errorf("%s: got %q, %v", obj, out, err)
		}
	}
}
