package corpus

import "testing"

func TestSplitFormat(t *testing.T) {
	for _, tc := range []struct {
		name, head, forced, want string
	}{
		{"x.tsv", "a\tb\n", "", FormatTSV},
		{"x.jsonl", `{"label":"a"}`, "", FormatJSONL},
		{"x.ndjson", `{}`, "auto", FormatJSONL},
		{"x.txt", "__label__a b\n", "", FormatFastText},
		{"x.txt", "just words\n", "", FormatTSV},
		{"x.data", "a\tb\n", "", FormatTSV},
		{"x.data", "{}\n", "", FormatJSONL},
		{"x.data", "just words\n", "", ""},
		{"x.data", "just words\n", "fasttext", FormatFastText},
		{"x.csv", "label,text\n", "", ""},
		{"x.data", "label,text\n", "", ""},
		{"x.tsv", "label,text\n", "csv", ""},
		{"x.tsv.gz", "\x1f\x8b\x08", "", ""},
		{"x.tsv", "\x1f\x8b\x08", "", ""},
		{"x.tsv.zst", "a\tb\n", "", ""},
		{"x.tar", "", "", ""},
		{"x.tsv", "", "dir", ""},
	} {
		if got := SplitFormat(tc.name, []byte(tc.head), Options{Format: tc.forced}); got != tc.want {
			t.Errorf("SplitFormat(%q, %q, %q) = %q, want %q", tc.name, tc.head, tc.forced, got, tc.want)
		}
	}
}
