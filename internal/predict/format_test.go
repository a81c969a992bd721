package predict

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
	"github.com/nbtext/nbtext/internal/model"
)

// goldenLines is the stdin of the golden tests: clear cases, a close
// call, an empty line, words the model has never seen, capitals and
// punctuation, latin-1 bytes, a CRLF line and a last line without a
// newline.
const goldenLines = "the car engine needs oil\n" +
	"the senate votes on a tax bill\n" +
	"a rocket put the satellite in orbit\n" +
	"\n" +
	"zebra quux xylophone\n" +
	"The CAR, the Senate and the ORBIT!\n" +
	"new oil tax on the fast car\n" +
	"caf\xe9 station \xff\xfe orbit\r\n" +
	"congress debates a new space station"

// goldenJSONL is the JSONL stdin of the golden tests.
const goldenJSONL = `{"id": "post-1", "text": "the car engine needs oil", "source": "forum"}
{"id": 2, "text": "the senate votes on a tax bill", "meta": {"lang": "en", "tags": ["a", "b"]}}

{"text": "a rocket put the satellite in orbit", "label": "ignored: ours wins"}
{"text": "", "id": "empty\tone"}
`

func TestGolden(t *testing.T) {
	multi := toyModel(t, model.Multinomial)
	bern := toyModel(t, model.Bernoulli)
	costs, err := model.ParseCosts("space=20", toyClasses)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		m     *model.Model
		opt   Options
		input string
	}{
		{"text", multi, Options{}, goldenLines},
		{"text-top-k", multi, Options{TopK: 2}, goldenLines},
		{"text-explain", multi, Options{Explain: 2}, goldenLines},
		{"text-threshold", multi, Options{Threshold: 0.6}, goldenLines},
		{"text-top-k-threshold", multi, Options{TopK: 3, Threshold: 0.4}, goldenLines},
		{"tsv-top-k-threshold", multi, Options{Format: FormatTSV, Header: true, TopK: 3, Threshold: 0.4}, goldenLines},
		{"json-top-k-threshold", multi, Options{Format: FormatJSON, TopK: 3, Threshold: 0.4}, goldenLines},
		{"tsv", multi, Options{Format: FormatTSV}, goldenLines},
		{"tsv-header", multi, Options{Format: FormatTSV, Header: true}, goldenLines},
		{"tsv-header-top-k", multi, Options{Format: FormatTSV, Header: true, TopK: 3}, goldenLines},
		{"tsv-header-explain", multi, Options{Format: FormatTSV, Header: true, Explain: 3}, goldenLines},
		{"tsv-top-k-too-large", multi, Options{Format: FormatTSV, Header: true, TopK: 9}, goldenLines},
		{"tsv-costs", multi, Options{Format: FormatTSV, Costs: costs}, goldenLines},
		{"json", multi, Options{Format: FormatJSON}, goldenLines},
		{"json-top-k-explain", multi, Options{Format: FormatJSON, TopK: 2, Explain: 2}, goldenLines},
		{"json-threshold", multi, Options{Format: FormatJSON, Threshold: 0.6}, goldenLines},
		{"json-costs", multi, Options{Format: FormatJSON, Costs: costs}, goldenLines},
		{"jsonl-json", multi, Options{Input: InputJSONL, Format: FormatJSON}, goldenJSONL},
		{"jsonl-tsv", multi, Options{Input: InputJSONL, Format: FormatTSV, Header: true}, goldenJSONL},
		{"doc-json", multi, Options{Input: InputDoc, Format: FormatJSON, Explain: 3}, goldenLines},
		{"nul-tsv", multi, Options{Input: InputNUL, Format: FormatTSV}, strings.ReplaceAll(goldenLines, "\n", "\x00")},
		{"bernoulli-tsv", bern, Options{Format: FormatTSV, Header: true, TopK: 3, Explain: 2}, goldenLines},
		{"bernoulli-json", bern, Options{Format: FormatJSON}, goldenLines},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustStream(t, tt.m, tt.opt, tt.input)
			if tt.opt.Format == FormatJSON {
				checkJSONLines(t, out)
			}
			golden.Check(t, tt.name+".golden", out)
		})
	}
}

// checkJSONLines checks that out is one JSON object per line, each with an
// id, a label and probs.
func checkJSONLines(t *testing.T, out string) {
	t.Helper()
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" && out == "" {
			return
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d is not a JSON object: %v\n%s", i+1, err, line)
		}
		for _, k := range []string{"id", "label", "probs"} {
			if _, ok := obj[k]; !ok {
				t.Fatalf("line %d has no %q: %s", i+1, k, line)
			}
		}
	}
}

// jsonResults parses JSON output into one map per line.
func jsonResults(t *testing.T, out string) []map[string]any {
	t.Helper()
	var res []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		res = append(res, obj)
	}
	return res
}

func TestJSONEmptyDocument(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	res := jsonResults(t, mustStream(t, m, Options{Format: FormatJSON}, "the car\n\nzebra quux\n"))
	if len(res) != 3 {
		t.Fatalf("%d results, want 3", len(res))
	}
	if _, ok := res[0]["empty"]; ok {
		t.Errorf("a document with known words is flagged empty: %v", res[0])
	}
	prior := m.LogPrior()
	for _, r := range res[1:] {
		if r["empty"] != true {
			t.Errorf("no \"empty\": true: %v", r)
		}
		// An empty multinomial document is predicted from the prior:
		// autos and politics have 3 documents each, space 2; the tie goes
		// to the lower class id.
		if r["label"] != "autos" {
			t.Errorf("label %v, want autos (the prior's mode)", r["label"])
		}
		probs := r["probs"].(map[string]any)
		for c, name := range toyClasses {
			if got, want := probs[name].(float64), math.Exp(prior[c]); math.Abs(got-want) > 1e-4 {
				t.Errorf("P(%s) = %v, want the prior %v", name, got, want)
			}
		}
	}
}

func TestThreshold(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	in := "the car engine\nthe senate\nzebra\n"
	for _, tt := range []struct {
		threshold float64
		unsure    int // results below it
	}{{0, 0}, {0.0001, 0}, {0.9999, 3}} {
		text := mustStream(t, m, Options{Threshold: tt.threshold}, in)
		if got := strings.Count(text, "?\n"); got != tt.unsure {
			t.Errorf("threshold %v: text %q has %d '?', want %d", tt.threshold, text, got, tt.unsure)
		}
		tsv := mustStream(t, m, Options{Threshold: tt.threshold, Format: FormatTSV}, in)
		if got := strings.Count(tsv, "\t?\t"); got != tt.unsure {
			t.Errorf("threshold %v: tsv %q has %d '?', want %d", tt.threshold, tsv, got, tt.unsure)
		}
		unsure := 0
		for _, r := range jsonResults(t, mustStream(t, m, Options{Threshold: tt.threshold, Format: FormatJSON}, in)) {
			if r["label"] == "" {
				unsure++
			}
		}
		if unsure != tt.unsure {
			t.Errorf("threshold %v: %d empty JSON labels, want %d", tt.threshold, unsure, tt.unsure)
		}
	}
}

// TestCostsChangeDecision checks --costs against the decision rule
// argmax_y λ_y P(y|x): a document the MAP rule gives to autos goes to
// space once missing space costs enough, and not before.
func TestCostsChangeDecision(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	const doc = "the fast car in orbit\n"
	res := jsonResults(t, mustStream(t, m, Options{Format: FormatJSON}, doc))[0]
	if res["label"] != "autos" {
		t.Fatalf("MAP label %v, want autos; the toy model changed?", res["label"])
	}
	probs := res["probs"].(map[string]any)
	ratio := probs["autos"].(float64) / probs["space"].(float64) // λ_space above this flips the decision
	if ratio <= 1 {
		t.Fatalf("P(autos)/P(space) = %v, want > 1", ratio)
	}
	for _, tt := range []struct {
		lambda float64
		want   string
	}{{1, "autos"}, {ratio * 0.9, "autos"}, {ratio * 1.1, "space"}} {
		costs := []float64{1, 1, tt.lambda}
		r := jsonResults(t, mustStream(t, m, Options{Format: FormatJSON, Costs: costs}, doc))[0]
		if r["label"] != tt.want {
			t.Errorf("λ_space = %v: label %v, want %s", tt.lambda, r["label"], tt.want)
		}
		// The probabilities do not change with the costs.
		if p := r["probs"].(map[string]any); p["space"] != probs["space"] {
			t.Errorf("λ_space = %v: P(space) %v, want %v", tt.lambda, p["space"], probs["space"])
		}
	}
	// Top-k lists the decided class first, then the others by probability.
	text := mustStream(t, m, Options{TopK: 3, Costs: []float64{1, 1, ratio * 1.1}}, doc)
	if !strings.HasPrefix(text, "space ") || strings.Index(text, "autos") > strings.Index(text, "politics") {
		t.Errorf("top-k with costs: %q, want space first, then autos, then politics", text)
	}
}

func TestNewValidates(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	tests := []struct {
		opt  Options
		want string
	}{
		{Options{Input: "xml"}, "--input must be auto, lines, doc, jsonl, nul, csv, tsv, fasttext"},
		{Options{Format: "xml"}, "--format must be text, tsv or json"},
		{Options{TopK: -1}, "--top-k must be ≥ 0"},
		{Options{Explain: -2}, "--explain must be ≥ 0"},
		{Options{Threshold: 1.5}, "--threshold must be between 0 and 1"},
		{Options{Threshold: math.NaN()}, "--threshold must be between 0 and 1"},
		{Options{MaxDocBytes: -1}, "--max-doc-bytes must be ≥ 0"},
		{Options{Costs: []float64{1, 2}}, "--costs gives 2 weights for a model of 3 classes"},
	}
	for _, tt := range tests {
		_, err := New(m, tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v): %v, want %q", tt.opt, err, tt.want)
		}
		if tt.opt.Costs != nil {
			continue // checked against the model only
		}
		if err := tt.opt.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate(%+v) = %v, want %q", tt.opt, err, tt.want)
		}
	}
	if err := (Options{}).Validate(); err != nil {
		t.Errorf("Validate of the defaults: %v", err)
	}
}

func TestJSONStrings(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\r", "\x00\x01\x1f", "café ÿ 日本", "bad \xff utf8", "\u2028"} {
		b := appendJSONString(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Errorf("%q → %s: %v", s, b, err)
			continue
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); got != want {
			t.Errorf("%q → %s → %q", s, b, got)
		}
	}
}

// TestExplainInfinite checks explanations with infinite contributions (α =
// 0: a word one class never saw rules it out) in every format.
func TestExplainInfinite(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	ml, err := model.NewNB(model.Multinomial, m.Classes, m.Vocab, model.Params{Alpha: 0, Prior: "learned"}, m.ClassDocs, m.Counts)
	if err != nil {
		t.Fatal(err)
	}
	const in = "the car engine\n"
	text := mustStream(t, ml, Options{Explain: 2}, in)
	tsv := mustStream(t, ml, Options{Format: FormatTSV, Explain: 2}, in)
	for _, out := range []string{text, tsv} {
		if !strings.Contains(out, "car:+Inf") || strings.Contains(out, "++") {
			t.Errorf("explanation %q, want car:+Inf", out)
		}
	}
	js := mustStream(t, ml, Options{Format: FormatJSON, Explain: 2}, in)
	checkJSONLines(t, js)
	if !strings.Contains(js, `{"term":"car","weight":"+Inf"}`) {
		t.Errorf("JSON explanation %s, want car with weight \"+Inf\"", js)
	}
}
