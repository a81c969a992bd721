package corpus

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkLines checks what ReadFrom made of a TSV or JSONL input: an error
// naming the stream, or documents in line order with well-formed labels and
// texts, and Strip agreeing with Options.Remove.
func checkLines(t *testing.T, format string, data []byte) {
	c, err := ReadFrom(bytes.NewReader(data), "fuzz", Options{Format: format})
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz:") && !strings.HasPrefix(err.Error(), "fuzz: ") {
			t.Fatalf("error does not name the source: %v", err)
		}
		return
	}
	if len(c.Docs) == 0 {
		t.Fatal("no error and no documents")
	}
	last := 0
	labels := map[string]bool{}
	for _, d := range c.Docs {
		var n int
		if _, err := fmt.Sscanf(d.ID, "fuzz:%d", &n); err != nil || n <= last {
			t.Fatalf("ID %q after line %d", d.ID, last)
		}
		last = n
		switch {
		case d.Label == "":
			t.Fatalf("%s: empty label", d.ID)
		case !utf8.ValidString(d.Label) || !utf8.ValidString(d.Text):
			t.Fatalf("%s: invalid UTF-8 %q %q", d.ID, d.Label, d.Text)
		case strings.ContainsAny(d.Label, "\t\n\r\x00") || d.Label != strings.TrimSpace(d.Label) || strings.HasPrefix(d.Label, "\ufeff"):
			t.Fatalf("%s: label %q", d.ID, d.Label)
		case strings.IndexByte(d.Text, 0) >= 0 || ((format == "tsv" || format == "fasttext") && strings.IndexByte(d.Text, '\n') >= 0):
			t.Fatalf("%s: text %q", d.ID, d.Text)
		}
		labels[d.Label] = true
	}
	if len(labels) != len(c.Labels) || !sort.StringsAreSorted(c.Labels) {
		t.Fatalf("Labels %q for %d distinct labels", c.Labels, len(labels))
	}
	all := RemoveHeaders | RemoveFooters | RemoveQuotes
	s, err := ReadFrom(bytes.NewReader(data), "fuzz", Options{Format: format, Remove: all})
	if err != nil || len(s.Docs) != len(c.Docs) {
		t.Fatalf("with Remove: %v", err)
	}
	for i, d := range s.Docs {
		if want := Strip(c.Docs[i].Text, all); d.Text != want || !utf8.ValidString(d.Text) {
			t.Fatalf("%s: stripped %q, want %q", d.ID, d.Text, want)
		}
	}
}

func FuzzReadTSV(f *testing.F) {
	f.Add([]byte("ham\thello\nspam\tbuy now\n"))
	f.Add([]byte("a\tx\r\n\n  \nb\ty\tz"))
	f.Fuzz(func(t *testing.T, data []byte) { checkLines(t, "tsv", data) })
}

func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(`{"label":"ham","text":"hello"}` + "\n" + `{"label":"spam","text":"buy\nnow"}`))
	f.Add([]byte(`{"label":"a","text":"x\u00e9","extra":[1,2]}` + "\r\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkLines(t, "jsonl", data) })
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("label,text\nham,hello\nspam,\"buy, now\"\n"))
	f.Add([]byte("\ufefflabel,text\r\n a ,\"x\n\"\"y\"\"\"\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkLines(t, "csv", data) })
}

func FuzzReadFastText(f *testing.F) {
	f.Add([]byte("__label__ham hello\n__label__spam buy now\n"))
	f.Add([]byte("\ufeff__label__a  x\ty\r\n\n__label__b __label__b z"))
	f.Fuzz(func(t *testing.T, data []byte) { checkLines(t, "fasttext", data) })
}
