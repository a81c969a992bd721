package counts

import (
	"bytes"
	"strings"
	"testing"
)

// TestSubtractInverse: subtracting a part from the whole gives, byte for
// byte, the count of the rest; a class left empty goes.
func TestSubtractInverse(t *testing.T) {
	texts, labels := docs(500, 3)
	s := settings()
	whole := countAll(t, s, nil, texts, labels, Options{})
	// The rest: the first 300 documents; the part: the last 200 and
	// every "gamma" document, so that gamma leaves the rest.
	var rt, rl, pt, pl []string
	for i := range texts {
		if i < 300 && labels[i] != "gamma" {
			rt, rl = append(rt, texts[i]), append(rl, labels[i])
		} else {
			pt, pl = append(pt, texts[i]), append(pl, labels[i])
		}
	}
	rest := countAll(t, s, nil, rt, rl, Options{})
	part := countAll(t, s, nil, pt, pl, Options{})
	got, err := Subtract(whole, part, "whole.nbc", "part")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, got), encode(t, rest)) {
		t.Errorf("whole - part differs from the count of the rest: classes %v / %v, %d / %d terms", got.Classes, rest.Classes, got.Len(), rest.Len())
	}
	if len(got.Classes) != 2 {
		t.Errorf("classes %v, want gamma gone", got.Classes)
	}
	// And back: rest + part is the whole.
	back, err := Merge([]*Counts{got, part}, []string{"rest", "part"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encode(t, back), encode(t, whole)) {
		t.Error("(whole - part) + part differs from the whole")
	}
}

// TestSubtractRefuses: documents that were not counted show as a class,
// a term or a count that the whole lacks, and the error names both.
func TestSubtractRefuses(t *testing.T) {
	s := settings()
	whole := countAll(t, s, nil, []string{"apple banana", "apple cherry", "dog egg"}, []string{"a", "a", "b"}, Options{})
	for _, tc := range []struct {
		name          string
		texts, labels []string
		want          string
	}{
		{"class", []string{"apple"}, []string{"c"}, `class "c" is not in whole.nbc`},
		{"term", []string{"apple zebra"}, []string{"a"}, `term "apple zebra" is not in whole.nbc`},
		{"term in another class", []string{"dog"}, []string{"a"}, `term "dog" is in 1 documents of class "a", in none of whole.nbc`},
		{"too many documents", []string{"apple", "apple", "apple"}, []string{"a", "a", "a"}, `class "a" has 3 documents, more than the 2 of whole.nbc`},
		{"too many occurrences", []string{"apple apple apple"}, []string{"a"}, `term "apple" is in 1 documents of class "a" (3 occurrences), more than the 2 (2) of whole.nbc`},
		{"all", []string{"apple banana", "apple cherry", "dog egg"}, []string{"a", "a", "b"}, "removes every document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			part := countAll(t, s, nil, tc.texts, tc.labels, Options{})
			_, err := Subtract(whole, part, "whole.nbc", "part.tsv")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "part.tsv") {
				t.Errorf("error %v, want one naming part.tsv and saying %q", err, tc.want)
			}
		})
	}
	other := s
	other.MinDF = 5
	part := countAll(t, other, nil, []string{"apple"}, []string{"a"}, Options{})
	if _, err := Subtract(whole, part, "whole.nbc", "part.tsv"); err == nil || !strings.Contains(err.Error(), "min_df") {
		t.Errorf("other settings: %v", err)
	}
}
