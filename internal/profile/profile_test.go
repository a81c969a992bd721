package profile

import (
	"math"
	"strings"
	"testing"
)

func TestSampler(t *testing.T) {
	var s Sampler
	for _, text := range []string{
		"東京都の天気は晴れ",    // 9 letters, all unsegmented
		"Hello, world", // 10 Latin letters
		"Кошки спят",   // 9 Cyrillic
		"",             // empty
		"ภาษาไทย 123",  // Thai (vowel marks are not letters)
	} {
		s.Add(text)
	}
	p := s.Profile()
	if p.Docs != 5 {
		t.Errorf("Docs = %d, want 5", p.Docs)
	}
	// Lengths in characters: 9, 12, 10, 0, 11; median 10.
	if p.MedianChars != 10 {
		t.Errorf("MedianChars = %d, want 10", p.MedianChars)
	}
	if p.Script != "Latin" {
		t.Errorf("Script = %q, want Latin (10 letters, Han 6)", p.Script)
	}
	if !(p.Unsegmented > 0.4 && p.Unsegmented < 0.6) {
		t.Errorf("Unsegmented = %v, want about half of the letters", p.Unsegmented)
	}
	p.SetClasses([]int{90, 9, 1})
	if p.Classes != 3 || math.Abs(p.SmallestClass-0.01) > 1e-12 {
		t.Errorf("classes: %d, smallest %v; want 3, 0.01", p.Classes, p.SmallestClass)
	}
	if got := p.String(); !strings.Contains(got, "median 10 characters") || !strings.Contains(got, "smallest of 3 classes 1.0%") {
		t.Errorf("String() = %q", got)
	}
}

// TestSamplerBounds: documents past SampleDocs are not profiled.
func TestSamplerBounds(t *testing.T) {
	var s Sampler
	for range SampleDocs {
		s.Add("ab")
	}
	if !s.Full() {
		t.Fatal("not full after SampleDocs documents")
	}
	s.Add(strings.Repeat("語", 1000))
	if p := s.Profile(); p.Docs != SampleDocs || p.MedianChars != 2 || p.Unsegmented != 0 || p.Script != "Latin" {
		t.Errorf("profile after the sample was full: %+v", p)
	}
}
