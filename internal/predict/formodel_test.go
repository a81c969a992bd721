package predict

import (
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestForModel: the names a model records fill in the field flags not
// given; costs are parsed against its classes; requests a model of one
// label without record fields cannot answer are refused, naming the file.
func TestForModel(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	m.Meta.Input = &model.InputNames{LabelField: "topic", TextFields: []string{"body"}, LabelPrefix: "#"}
	base := Options{Input: InputAuto, Fields: Fields{Label: "label", Text: []string{"text"}, LabelPrefix: "__label__"}}
	none := func(string) bool { return false }
	o, err := base.ForModel(m, Request{Path: "m.nbm", Args: []string{"a.csv"}, Given: none, Costs: "space=2"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Fields.Label != "topic" || o.Fields.Text[0] != "body" || o.Fields.LabelPrefix != "#" {
		t.Errorf("model's names not used: %+v", o.Fields)
	}
	if len(o.Costs) != 3 || o.Costs[2] != 2 || o.Costs[0] != 1 {
		t.Errorf("costs: %v", o.Costs)
	}
	textGiven := func(f string) bool { return f == "text-field" }
	if o, _ := base.ForModel(m, Request{Path: "m.nbm", Given: textGiven}); o.Fields.Text[0] != "text" || o.Fields.Label != "topic" {
		t.Errorf("a given --text-field lost to the model's: %+v", o.Fields)
	}
	for _, tt := range []struct {
		name string
		opt  Options
		req  Request
		want string
	}{
		{"min-labels", Options{MinLabels: 1}, Request{}, "--min-labels and --all-probs apply to multi-label models; m.nbm has one label"},
		{"fields", base, Request{Categorical: []string{"colour"}}, "m.nbm has no record fields"},
		{"costs", base, Request{Costs: "nope=2"}, "nope"},
	} {
		tt.req.Path, tt.req.Given = "m.nbm", none
		if _, err := tt.opt.ForModel(m, tt.req); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestHeaderInput(t *testing.T) {
	for _, tt := range []struct {
		input string
		args  []string
		want  bool
	}{
		{InputCSV, nil, true}, {InputTSV, nil, true}, {InputLines, []string{"a.csv"}, false},
		{InputAuto, []string{"a.csv", "b.tsv.gz"}, true}, {InputAuto, []string{"a.csv", "b.txt"}, false}, {InputAuto, nil, false},
	} {
		if got := headerInput(tt.input, tt.args); got != tt.want {
			t.Errorf("headerInput(%s, %v) = %v", tt.input, tt.args, got)
		}
	}
}
