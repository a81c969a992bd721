package counts

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestWriteParts: the parts WriteParts writes are Counts() cut by term,
// each with the whole header, with and without spilled runs.
func TestWriteParts(t *testing.T) {
	texts, labels := docs(400, 7)
	s := settings()
	want, err := counter(t, s, nil, texts, labels, Options{Workers: 2}).Counts()
	if err != nil {
		t.Fatal(err)
	}
	part := func(term string) int { return int(term[0]) % 3 }
	for _, opt := range []Options{{Workers: 2}, {Workers: 3, Mem: 8 << 10, TempDir: t.TempDir()}} {
		c := counter(t, s, nil, texts, labels, opt)
		bufs := make([]bytes.Buffer, 3)
		ws := []io.Writer{&bufs[0], &bufs[1], &bufs[2]}
		if _, err := c.WriteParts(ws, part); err != nil {
			t.Fatal(err)
		}
		if opt.Mem > 0 && c.Runs() == 0 {
			t.Errorf("%+v: nothing spilled", opt)
		}
		terms := 0
		for p := range bufs {
			got, err := Decode(&bufs[p], "part")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Header, want.Header) {
				t.Errorf("%+v: part %d's header differs", opt, p)
			}
			for i, term := range got.Terms {
				j := indexOf(want.Terms, term)
				if part(term) != p || j < 0 || !reflect.DeepEqual(got.Row(i), want.Row(j)) {
					t.Fatalf("%+v: part %d: term %q wrong", opt, p, term)
				}
			}
			terms += got.Len()
		}
		if terms != want.Len() {
			t.Errorf("%+v: the parts hold %d terms, want %d", opt, terms, want.Len())
		}
	}
}

// TestConcat: the concatenation of the parts WriteParts writes is the
// counts file of the whole; overlapping parts and parts of other counts
// are refused.
func TestConcat(t *testing.T) {
	texts, labels := docs(300, 5)
	s := settings()
	whole, err := counter(t, s, nil, texts, labels, Options{Workers: 2}).Counts()
	if err != nil {
		t.Fatal(err)
	}
	want := encode(t, whole)
	bufs := make([]bytes.Buffer, 4)
	ws := []io.Writer{&bufs[0], &bufs[1], &bufs[2], &bufs[3]}
	if _, err := counter(t, s, nil, texts, labels, Options{Workers: 3}).WriteParts(ws, func(term string) int { return len(term) % 4 }); err != nil {
		t.Fatal(err)
	}
	readers := func(bs ...[]byte) []io.Reader {
		var rs []io.Reader
		for _, b := range bs {
			rs = append(rs, bytes.NewReader(b))
		}
		return rs
	}
	names := []string{"p1", "p2", "p3", "p4"}
	var got bytes.Buffer
	h, n, err := Concat(&got, readers(bufs[3].Bytes(), bufs[1].Bytes(), bufs[0].Bytes(), bufs[2].Bytes()), names)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) || n != whole.Len() || !reflect.DeepEqual(*h, whole.Header) {
		t.Errorf("concat: %d terms, %d bytes; want %d terms, %d bytes", n, got.Len(), whole.Len(), len(want))
	}
	if _, n, err := Concat(io.Discard, readers(want), names); err != nil || n != whole.Len() {
		t.Errorf("one file: %d terms, %v", n, err)
	}
	if _, _, err := Concat(io.Discard, readers(bufs[0].Bytes(), bufs[0].Bytes()), names); err == nil || !strings.Contains(err.Error(), "in both") {
		t.Errorf("overlapping parts: %v", err)
	}
	other := encode(t, countAll(t, s, nil, texts[:100], labels[:100], Options{}))
	if _, _, err := Concat(io.Discard, readers(bufs[0].Bytes(), other), names); err == nil || !strings.Contains(err.Error(), "different headers") {
		t.Errorf("parts of other counts: %v", err)
	}
}

func indexOf(terms []string, t string) int {
	for i, s := range terms {
		if s == t {
			return i
		}
	}
	return -1
}
