package corpus

import (
	"reflect"
	"testing"
)

func TestLabelSets(t *testing.T) {
	c := &Corpus{Docs: []Document{
		{Label: "b", Labels: []string{"b", "a"}},
		{Label: "c"},             // single-label reader: Label stands in
		{Label: "", Labels: nil}, // no label at all
		{Label: "a", Labels: []string{"a"}},
	}}
	sets, labels := c.LabelSets()
	want := [][]string{{"b", "a"}, {"c"}, nil, {"a"}}
	if !reflect.DeepEqual(sets, want) {
		t.Errorf("sets %q, want %q", sets, want)
	}
	if !reflect.DeepEqual(labels, []string{"a", "b", "c"}) {
		t.Errorf("labels %q, want [a b c]", labels)
	}
}
