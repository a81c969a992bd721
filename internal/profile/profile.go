package profile

import (
	"fmt"
	"slices"
	"unicode"
	"unicode/utf8"
)

// The sample's bounds: the first SampleDocs documents of the input, or
// fewer when they pass SampleBytes bytes of text.
const (
	SampleDocs  = 5000
	SampleBytes = 8 << 20
)

// Profile is what the defaults read about a corpus.
type Profile struct {
	// Docs is the number of documents sampled, MedianChars their median
	// length in characters.
	Docs        int `json:"docs"`
	MedianChars int `json:"median_chars"`
	// Unsegmented is the share of the sampled letters in scripts
	// written without spaces between words; Script is the script of
	// most letters ("Latin", "Han", ...; "" without letters).
	Unsegmented float64 `json:"unsegmented"`
	Script      string  `json:"script"`
	// Classes is the number of classes and SmallestClass the smallest
	// class's share of the documents (every document, not the sample); 0
	// until set (Profile.SetClasses).
	Classes       int     `json:"classes,omitempty"`
	SmallestClass float64 `json:"smallest_class,omitempty"`
}

// String is a one-line summary, as 'nbtext info' and train print it.
func (p Profile) String() string {
	s := fmt.Sprintf("median %d characters (%d documents sampled)", p.MedianChars, p.Docs)
	if p.Script != "" {
		s += fmt.Sprintf(", %s script, %.0f%% of letters unsegmented", p.Script, 100*p.Unsegmented)
	}
	if p.Classes > 0 {
		s += fmt.Sprintf(", smallest of %d classes %.1f%% of documents", p.Classes, 100*p.SmallestClass)
	}
	return s
}

// SetClasses sets the class balance from the documents per class.
func (p *Profile) SetClasses(sizes []int) {
	n, least := 0, -1
	for _, k := range sizes {
		n += k
		if least < 0 || k < least {
			least = k
		}
	}
	p.Classes = len(sizes)
	p.SmallestClass = 0
	if n > 0 {
		p.SmallestClass = float64(least) / float64(n)
	}
}

// scripts are the scripts a letter is sorted into, in order; the last
// ones, from Han on, are unsegmented.
var scripts = []struct {
	name        string
	table       *unicode.RangeTable
	unsegmented bool
}{
	{"Latin", unicode.Latin, false},
	{"Cyrillic", unicode.Cyrillic, false},
	{"Greek", unicode.Greek, false},
	{"Arabic", unicode.Arabic, false},
	{"Hebrew", unicode.Hebrew, false},
	{"Devanagari", unicode.Devanagari, false},
	{"Bengali", unicode.Bengali, false},
	{"Tamil", unicode.Tamil, false},
	{"Telugu", unicode.Telugu, false},
	{"Kannada", unicode.Kannada, false},
	{"Malayalam", unicode.Malayalam, false},
	{"Georgian", unicode.Georgian, false},
	{"Armenian", unicode.Armenian, false},
	{"Han", unicode.Han, true},
	{"Hiragana", unicode.Hiragana, true},
	{"Katakana", unicode.Katakana, true},
	{"Hangul", unicode.Hangul, true},
	{"Thai", unicode.Thai, true},
	{"Lao", unicode.Lao, true},
	{"Khmer", unicode.Khmer, true},
	{"Myanmar", unicode.Myanmar, true},
	{"Tibetan", unicode.Tibetan, true},
}

// other is the index of letters of no script above.
var other = len(scripts)

// Sampler profiles the documents it is given, up to SampleDocs of them
// and SampleBytes bytes; the documents after are ignored. The zero value
// is ready to use.
type Sampler struct {
	lens    []int
	bytes   int
	letters []int64 // letters per script (index in scripts; other last)
	last    int     // index of the script of the last non-ASCII letter
}

// Full reports whether the sample is complete: Add ignores what follows.
func (s *Sampler) Full() bool { return len(s.lens) >= SampleDocs || s.bytes >= SampleBytes }

// Add profiles text, unless the sample is full.
func (s *Sampler) Add(text string) {
	if s.Full() {
		return
	}
	if s.letters == nil {
		s.letters = make([]int64, len(scripts)+1)
	}
	s.bytes += len(text)
	n := 0
	for i := 0; i < len(text); {
		b := text[i]
		if b < utf8.RuneSelf {
			if 'a' <= b|0x20 && b|0x20 <= 'z' {
				s.letters[0]++
			}
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		n++
		if unicode.IsLetter(r) {
			s.letters[s.script(r)]++
		}
	}
	s.lens = append(s.lens, n)
}

// script returns the index in scripts of letter r (other if none), trying
// the script of the previous letter first: text runs in one script.
func (s *Sampler) script(r rune) int {
	if s.last < other && unicode.Is(scripts[s.last].table, r) {
		return s.last
	}
	for k, sc := range scripts {
		if unicode.Is(sc.table, r) {
			s.last = k
			return k
		}
	}
	return other
}

// Profile returns the profile of the documents sampled (no classes yet).
func (s *Sampler) Profile() Profile {
	p := Profile{Docs: len(s.lens)}
	if len(s.lens) > 0 {
		lens := slices.Clone(s.lens)
		slices.Sort(lens)
		p.MedianChars = lens[(len(lens)-1)/2]
	}
	var all, unseg, most int64
	for k, n := range s.letters {
		all += n
		if k < other && scripts[k].unsegmented {
			unseg += n
		}
		if k < other && n > most {
			most, p.Script = n, scripts[k].name
		}
	}
	if all > 0 {
		p.Unsegmented = float64(unseg) / float64(all)
	}
	return p
}
