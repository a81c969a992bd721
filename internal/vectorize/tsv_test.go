package vectorize

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestTSVRoundTrip(t *testing.T) {
	s := DefaultSettings()
	s.NGramMax = 2
	s.StopWords = "english"
	s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2"
	texts := append(synthText(5, 200, 30), "Ñandú café x² naïve", "ΟΔΟΣ日本")
	v, _, err := Fit(texts, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTSV(&buf, v); err != nil {
		t.Fatal(err)
	}
	// File order: df descending, then term.
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# nbtext vocabulary v1") || lines[4] != "term\tdf\tcf" {
		t.Fatalf("file starts %q", lines[:5])
	}
	var prevDF int
	var prevTerm string
	for i, line := range lines[5:] {
		var term string
		var df, cf int
		f := strings.Split(line, "\t")
		fmt.Sscan(f[1], &df)
		fmt.Sscan(f[2], &cf)
		term = f[0]
		if i > 0 && (df > prevDF || df == prevDF && term <= prevTerm) {
			t.Fatalf("line %d %q after %q (df %d): not df descending, term ascending", i+6, line, prevTerm, prevDF)
		}
		prevDF, prevTerm = df, term
	}
	w, err := ReadTSV(&buf, "v.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w.Settings, v.Settings) || w.NDocs != v.NDocs ||
		!reflect.DeepEqual(w.Terms, v.Terms) || !reflect.DeepEqual(w.DF, v.DF) || !reflect.DeepEqual(w.CF, v.CF) ||
		!reflect.DeepEqual(w.IDF(), v.IDF()) {
		t.Error("vocabulary read back differs from the one written")
	}
	for i, term := range v.Terms {
		if id, ok := w.Lookup(term); !ok || int(id) != i {
			t.Fatalf("read back: Lookup(%q) = %d, %v; want %d", term, id, ok, i)
		}
	}
}

func TestReadTSVErrors(t *testing.T) {
	head := "# nbtext vocabulary v1\n# terms 2\n# documents 3\n# settings {}\nterm\tdf\tcf\n"
	tests := []struct {
		name, file, want string
	}{
		{"empty", "", "v.tsv: empty file, not an nbtext vocabulary"},
		{"not ours", "term\tdf\tcf\n", `v.tsv:1: not an nbtext vocabulary file`},
		{"newer", "# nbtext vocabulary v2\n", "v.tsv:1: vocabulary format v2 is newer than this nbtext reads (v1): upgrade nbtext"},
		{"no documents", "# nbtext vocabulary v1\n# settings {}\nterm\tdf\tcf\n", `v.tsv:3: header before the "# documents N" line`},
		{"bad settings json", "# nbtext vocabulary v1\n# documents 3\n# settings {\"min_df\":\"x\"}\n", "v.tsv:3: bad settings"},
		{"unknown setting", "# nbtext vocabulary v1\n# documents 3\n# settings {\"colour\":1}\n", "v.tsv:3: bad settings"},
		{"invalid setting", "# nbtext vocabulary v1\n# documents 3\n# settings {\"min_df\":0}\n", "v.tsv:3: bad settings: --min-df must be ≥ 1, got 0"},
		{"no header", "# nbtext vocabulary v1\n# documents 3\n# settings {}\n", `v.tsv: no "term\tdf\tcf" header line`},
		{"junk before header", "# nbtext vocabulary v1\nhello\n", `v.tsv:2: want the header`},
		{"no tab", head + "aa 1 1\n", "v.tsv:6: want term<TAB>df<TAB>cf"},
		{"one tab", head + "aa\t1\n", "v.tsv:6: want term<TAB>df<TAB>cf"},
		{"empty term", head + "\t1\t1\n", "v.tsv:6: empty term"},
		{"bad df", head + "aa\tx\t1\n", `v.tsv:6: df must be a whole number in 0..3 (the documents), got "x"`},
		{"df too big", head + "aa\t4\t4\n", `v.tsv:6: df must be a whole number in 0..3`},
		{"cf below df", head + "aa\t2\t1\n", `v.tsv:6: cf must be a whole number ≥ df (2), got "1"`},
		{"duplicate", head + "aa\t2\t2\naa\t1\t1\n", `v.tsv:7: term "aa" already on line 6`},
		{"cut short", head + "aa\t2\t2\n", "v.tsv: cut short? the file announces 2 terms but holds 1"},
	}
	for _, tt := range tests {
		_, err := ReadTSV(strings.NewReader(tt.file), "v.tsv")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to start with %q", tt.name, err, tt.want)
		}
	}
	// Comments, CRLF line ends and a missing terms line are fine.
	v, err := ReadTSV(strings.NewReader("# nbtext vocabulary v1\r\n# by hand\r\n# documents 3\r\n# settings {\"stop_words\":\"english\"}\r\nterm\tdf\tcf\r\nzz\t1\t1\r\naa\t3\t7\r\n"), "v.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v.Terms, []string{"aa", "zz"}) || v.Settings.StopWords != "english" || v.Settings.MinDF != 1 {
		t.Errorf("read %q %+v", v.Terms, v.Settings)
	}
}
