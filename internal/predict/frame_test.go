package predict

import (
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// framed is what the framer made of one record.
type framed struct {
	id, text string
	extra    string // JSONL: the passed-through fields, "key=value;..."
	fail     string
}

// frames runs the framer over input and returns its records, and the
// error that stopped it (nil at the end of input).
func frames(t *testing.T, input, mode string, max int) ([]framed, error) {
	t.Helper()
	opt := Options{Input: mode, MaxDocBytes: max}
	if err := opt.normalize(); err != nil {
		t.Fatal(err)
	}
	fr := newFramer(strings.NewReader(input), "stdin", opt.Input, opt.MaxDocBytes)
	var out []framed
	for {
		rec, text, err := fr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		f := framed{id: rec.id, text: rec.text, fail: rec.fail}
		if rec.raw {
			f.id = fmt.Sprint(rec.n)
			f.text = strings.Clone(decodeInPlace(text))
		}
		for _, x := range rec.extra {
			f.extra += x.key + "=" + string(x.raw) + ";"
		}
		out = append(out, f)
		if len(out) > 1000 {
			t.Fatal("framer does not stop")
		}
	}
}

func TestFrameLines(t *testing.T) {
	tests := []struct {
		name, input string
		want        []string // texts; ids are 1, 2, ...
	}{
		{"empty input", "", nil},
		{"one line", "the car\n", []string{"the car"}},
		{"no final newline", "the car\nthe senate", []string{"the car", "the senate"}},
		{"final newline", "the car\nthe senate\n", []string{"the car", "the senate"}},
		{"crlf", "the car\r\nthe senate\r\n", []string{"the car", "the senate"}},
		{"crlf without final newline", "the car\r\nthe senate\r", []string{"the car", "the senate"}},
		{"inner cr kept", "a\rb\n", []string{"a\rb"}},
		{"empty lines are documents", "\n\nx\n\n", []string{"", "", "x", ""}},
		{"only a newline", "\n", []string{""}},
		{"latin-1", "caf\xe9 cr\xe8me\n", []string{"café crème"}},
		{"utf-8 kept", "café\n", []string{"café"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := frames(t, tt.input, InputLines, 0)
			if err != nil {
				t.Fatal(err)
			}
			var want []framed
			for i, s := range tt.want {
				want = append(want, framed{id: fmt.Sprint(i + 1), text: s})
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("frames(%q) =\n%q\nwant\n%q", tt.input, got, want)
			}
		})
	}
}

func TestFrameDoc(t *testing.T) {
	for _, tt := range []struct{ input, want string }{
		{"a b\nc d\n", "a b\nc d\n"},
		{"", ""},
		{"caf\xe9\n", "café\n"},
	} {
		got, err := frames(t, tt.input, InputDoc, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []framed{{id: "stdin", text: tt.want}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("frames(%q, doc) = %q, want %q", tt.input, got, want)
		}
	}
}

// TestFrameNotText checks that a line, or a document read whole, with NUL
// bytes is answered as unreadable, as a file with NUL bytes in a folder is
// (before, it was scored as text).
func TestFrameNotText(t *testing.T) {
	got, err := frames(t, "a b\nc\x00d\ne\n", InputLines, 0)
	want := []framed{{id: "1", text: "a b"}, {id: "2", fail: "stdin:2: contains NUL bytes: not text"}, {id: "3", text: "e"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("lines: %q, %v; want %q", got, err, want)
	}
	got, err = frames(t, "a b\r\n\x00tail", InputDoc, 0)
	want = []framed{{id: "stdin", fail: "stdin: contains NUL bytes: not text"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("doc: %q, %v; want %q", got, err, want)
	}
}

func TestFrameNUL(t *testing.T) {
	tests := []struct {
		input string
		want  []string
	}{
		{"", nil},
		{"one\ntwo lines", []string{"one\ntwo lines"}},
		{"a\x00b\x00", []string{"a", "b"}},
		{"a\x00b", []string{"a", "b"}},
		{"a\nb\x00c\r\n", []string{"a\nb", "c\r\n"}},
		{"\x00\x00", []string{"", ""}},
		{"x\xff\x00", []string{"xÿ"}},
	}
	for _, tt := range tests {
		got, err := frames(t, tt.input, InputNUL, 0)
		if err != nil {
			t.Fatal(err)
		}
		var want []framed
		for i, s := range tt.want {
			want = append(want, framed{id: fmt.Sprint(i + 1), text: s})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("frames(%q, nul) = %q, want %q", tt.input, got, want)
		}
	}
}

func TestFrameJSONL(t *testing.T) {
	input := `{"id": "a-1", "text": "the car"}
{"id": 42, "text": "the senate", "source": {"feed": "x", "n": [1, 2]}}

{"text": "no id", "lang": "en", "score": 1.5e3}
   
{"lang":"fr","text":"caf\u00e9","id":null}
{"text": "last line without newline", "ok": true}`
	got, err := frames(t, input, InputJSONL, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []framed{
		{id: "a-1", text: "the car", extra: `id="a-1";`},
		{id: "42", text: "the senate", extra: `id=42;source={"feed": "x", "n": [1, 2]};`},
		{id: "4", text: "no id", extra: `lang="en";score=1.5e3;`}, // line 4: blank lines count
		{id: "6", text: "café", extra: `lang="fr";`},              // null: no id
		{id: "7", text: "last line without newline", extra: `ok=true;`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}

	// Invalid UTF-8 in a line is read as latin-1, as corpus reads JSONL.
	got, err = frames(t, "{\"text\": \"caf\xe9\"}\n", InputJSONL, 0)
	if err != nil || len(got) != 1 || got[0].text != "café" {
		t.Errorf("latin-1 line: %q, %v", got, err)
	}
	// Blank lines only: no documents.
	if got, err := frames(t, "\n  \n\r\n", InputJSONL, 0); err != nil || len(got) != 0 {
		t.Errorf("blank lines: %q, %v", got, err)
	}
}

func TestFrameJSONLErrors(t *testing.T) {
	ok := `{"text": "fine"}` + "\n"
	tests := []struct {
		name, line, want string
	}{
		{"not json", `the car`, `stdin:3: invalid JSON`},
		{"cut object", `{"text": "the car"`, `stdin:3: invalid JSON`},
		{"array", `["the car"]`, `stdin:3: invalid JSON: want an object`},
		{"string", `"the car"`, `stdin:3: invalid JSON: want an object`},
		{"missing text", `{"id": 1, "body": "the car"}`, `stdin:3: missing "text" field`},
		{"number text", `{"text": 12}`, `stdin:3: "text" must be a string, got 12`},
		{"null text", `{"text": null}`, `stdin:3: "text" must be a string, got null`},
		{"object text", `{"text": {"a": 1}}`, `stdin:3: "text" must be a string`},
		{"trailing data", `{"text": "a"} {"text": "b"}`, `stdin:3: invalid JSON: data after the object`},
		{"extra brace", `{"text": "a"}}`, `stdin:3: invalid JSON`},
		{"bad value", `{"text": "a", "n": tru}`, `stdin:3: invalid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A malformed record fails alone; the next is read (issue 28,
			// item 11).
			got, err := frames(t, ok+"\n"+tt.line+"\n"+ok, InputJSONL, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 || got[0].fail != "" || got[2].fail != "" || !strings.Contains(got[1].fail, tt.want) {
				t.Fatalf("records %+v, want fine, a failure containing %q, fine", got, tt.want)
			}
		})
	}
}

// TestFrameOversized checks that a record over the bound becomes a failed
// record in its place, naming its line, and that framing goes on after it.
func TestFrameOversized(t *testing.T) {
	const max = 11 // the shortest JSONL record, {"text":""}, fits
	long := strings.Repeat("x", max+1)
	fits := strings.Repeat("y", max)
	for _, mode := range []string{InputLines, InputJSONL, InputNUL, InputDoc} {
		sep := "\n"
		if mode == InputNUL {
			sep = "\x00"
		}
		first, last := fits, fits
		if mode == InputJSONL {
			first, last = `{"text":""}`, `{"text":""}`
		}
		for _, input := range []string{
			first + sep + long + sep + last + sep, // oversized in the middle
			first + sep + long,                    // oversized last line without a separator
		} {
			got, err := frames(t, input, mode, max)
			if err != nil {
				t.Errorf("%s %q: error %v", mode, input, err)
				continue
			}
			want := "stdin:2: document larger than 11 bytes (raise --max-doc-bytes)"
			n := 2 + boolInt(strings.HasSuffix(input, sep))
			at := 1
			if mode == InputDoc {
				want, n, at = "stdin: document larger than 11 bytes (raise --max-doc-bytes)", 1, 0
			}
			if len(got) != n || got[at].fail != want || got[at].text != "" {
				t.Errorf("%s %q: records %q, want %d with record %d failing with %q", mode, input, got, n, at+1, want)
				continue
			}
			for i, r := range got {
				if i != at && r.fail != "" {
					t.Errorf("%s %q: record %d fails: %s", mode, input, i+1, r.fail)
				}
			}
			if mode != InputDoc && n == 3 && got[2].id != "3" {
				t.Errorf("%s %q: the record after has id %q, want 3", mode, input, got[2].id)
			}
		}
	}
	// Exactly max bytes fit, with or without the separator; a CR before
	// the newline counts.
	for _, input := range []string{fits + "\n", fits} {
		if got, err := frames(t, input, InputLines, max); err != nil || len(got) != 1 || got[0].fail != "" {
			t.Errorf("%q: %q, %v", input, got, err)
		}
	}
	if got, _ := frames(t, fits+"\r\n", InputLines, max); len(got) != 1 || got[0].fail == "" {
		t.Errorf("%q: %q, want a failed record", fits+"\r\n", got)
	}
	// A line longer than the read buffer is assembled whole when it fits,
	// and refused naming its line when it does not.
	big := strings.Repeat("word ", 3*readerSize/5)
	got, err := frames(t, "a\n"+big+"\nb\n", InputLines, 4*readerSize)
	if err != nil || len(got) != 3 || got[1].text != big || got[2].text != "b" {
		t.Errorf("long line: %d records, %v", len(got), err)
	}
	got, err = frames(t, "a\n"+big+big+"\nb\n", InputLines, len(big)+1)
	if err != nil || len(got) != 3 || !strings.HasPrefix(got[1].fail, "stdin:2: document larger than") || got[2].text != "b" {
		t.Errorf("oversized long line: %q, %v", got, err)
	}
}

// endless yields the byte c forever, as /dev/zero does 0.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// TestFrameEndless is 'cat /dev/zero | nbtext predict': the first record
// never ends. The framer answers it as too large, skips at most skipMax
// more bytes looking for its end, then stops with an error naming the
// line, in every framing that looks for an end.
func TestFrameEndless(t *testing.T) {
	for _, tt := range []struct {
		mode string
		in   io.Reader
	}{
		{InputLines, endless(0)},
		{InputLines, io.MultiReader(strings.NewReader("the car\n"), endless('x'))},
		{InputJSONL, endless(0)},
		{InputJSONL, io.MultiReader(strings.NewReader(`{"text": "`), endless('x'))},
		{InputNUL, endless('x')},
	} {
		fr := newFramer(tt.in, "stdin", tt.mode, 1000)
		fr.skipMax = 1 << 20
		var recs []record
		var err error
		for len(recs) < 3 {
			var rec record
			if rec, _, err = fr.next(); err != nil {
				break
			}
			recs = append(recs, rec)
		}
		line := len(recs)
		want := fmt.Sprintf("stdin:%d: no end of the document within 1 MiB", line)
		if err == nil || !strings.HasPrefix(err.Error(), want) || line == 0 || recs[line-1].fail != fmt.Sprintf("stdin:%d: document larger than 1000 bytes (raise --max-doc-bytes)", line) {
			t.Errorf("%s: records %+v, error %v, want the last failing and %q...", tt.mode, recs, err, want)
		}
		if _, _, err := fr.next(); err != io.EOF {
			t.Errorf("%s: after the error: %v, want EOF", tt.mode, err)
		}
	}
	// A default framer gives up skipBytes past the bound.
	if fr := newFramer(endless(0), "stdin", InputLines, 10); fr.skipMax != skipBytes {
		t.Errorf("skipMax %d, want %d", fr.skipMax, skipBytes)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestStreamBinaryJunk feeds random bytes (NULs, invalid UTF-8, control
// characters, long runs without a newline) to every framing: each must
// predict every record or stop with a framing error, never panic.
func TestStreamBinaryJunk(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	rng := rand.New(rand.NewPCG(7, 7))
	const specials, words = "\n\x00\r\t {}\"\\\x7f\xc3\xff", "the car senate orbit "
	for round := range 20 {
		junk := make([]byte, 1+rng.IntN(5000))
		for i := range junk {
			switch rng.IntN(4) {
			case 0:
				junk[i] = byte(rng.IntN(256))
			case 1:
				junk[i] = specials[rng.IntN(len(specials))]
			default:
				junk[i] = words[rng.IntN(len(words))]
			}
		}
		for _, mode := range []string{InputLines, InputDoc, InputNUL, InputJSONL} {
			for _, format := range []string{FormatText, FormatTSV, FormatJSON} {
				out, err := stream(t, m, Options{Input: mode, Format: format, TopK: 2, Explain: 2}, string(junk))
				if mode == InputJSONL {
					continue // junk is rarely JSON: an error naming the line is the answer
				}
				if err != nil {
					t.Fatalf("round %d, %s, %s: %v", round, mode, format, err)
				}
				want := 1
				switch mode {
				case InputLines:
					want = strings.Count(string(junk), "\n") + boolInt(!strings.HasSuffix(string(junk), "\n"))
				case InputNUL:
					want = strings.Count(string(junk), "\x00") + boolInt(!strings.HasSuffix(string(junk), "\x00"))
				}
				if got := strings.Count(out, "\n"); got != want {
					t.Fatalf("round %d, %s, %s: %d results, want %d", round, mode, format, got, want)
				}
				if format == FormatJSON {
					checkJSONLines(t, out)
				}
			}
		}
	}
}
