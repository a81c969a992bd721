package corpus

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// labelsText returns "label:text" for each document of c.
func labelsText(c *Corpus) []string {
	out := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		out[i] = d.Label + ":" + d.Text
	}
	return out
}

// readString reads input as ReadFrom does on stdin.
func readString(input string, opts Options) (*Corpus, error) {
	return ReadFrom(strings.NewReader(input), "stdin", opts)
}

func TestReadRecordFormats(t *testing.T) {
	tests := []struct {
		name, input string
		opts        Options
		want        []string // label:text in order
		labels      []string
	}{
		// fastText lines failed with "missing tab between label and text".
		{"fasttext", "__label__sports the match\n__label__news  a\tday\r\n", Options{},
			[]string{"sports:the match", "news:a\tday\r"}, []string{"news", "sports"}},
		{"fasttext prefix", "#pos nice\n#neg bad\n", Options{Format: FormatFastText, LabelPrefix: "#"},
			[]string{"pos:nice", "neg:bad"}, nil},
		// CSV was not read at all.
		{"csv quoted newline", "label,text\nham,\"hello, \"\"you\"\"\nsecond line\"\nspam,buy\n", Options{},
			[]string{"ham:hello, \"you\"\nsecond line", "spam:buy"}, nil},
		{"csv named fields joined", "title,body,y\nT1,B1,a\nT2,B2,b\n", Options{Format: FormatCSV, LabelField: "y", TextFields: []string{"title", "body"}},
			[]string{"a:T1\nB1", "b:T2\nB2"}, nil},
		// A TSV header row trained a class named "label".
		{"tsv header detected", "label\ttext\nham\thi there\nspam\tbuy\n", Options{},
			[]string{"ham:hi there", "spam:buy"}, []string{"ham", "spam"}},
		{"tsv header forced", "y\tx\nham\thi\n", Options{Format: FormatTSV, Header: true, LabelField: "y", TextFields: []string{"x"}},
			[]string{"ham:hi"}, nil},
		{"tsv header other order", "id\ttext\tlabel\n1\thi\tham\n", Options{},
			[]string{"ham:hi"}, nil},
		{"tsv without header", "ham\thi\tthere\n", Options{}, []string{"ham:hi\tthere"}, nil},
		// A JSONL number label was refused; other key names could not be read.
		{"jsonl number and bool labels", `{"label":1,"text":"a"}` + "\n" + `{"label":true,"text":"b"}` + "\n" + `{"label":-2.5,"text":"c"}`, Options{},
			[]string{"1:a", "true:b", "-2.5:c"}, []string{"-2.5", "1", "true"}},
		{"jsonl named keys", `{"sentiment":"pos","review":"great","title":"t"}`, Options{LabelField: "sentiment", TextFields: []string{"title", "review"}},
			[]string{"pos:t\ngreat"}, nil},
		// A BOM became part of the first label; spaces made new classes.
		{"bom and spaces tsv", "\ufeffa\tx\n a \ty\na\tz\n", Options{}, []string{"a:x", "a:y", "a:z"}, []string{"a"}},
		{"bom csv header", "\ufefflabel,text\n b ,x\n", Options{}, []string{"b:x"}, nil},
		{"bom fasttext", "\ufeff__label__a x\n", Options{}, []string{"a:x"}, nil},
		{"spaces jsonl", `{"label":" a ","text":"x"}`, Options{}, []string{"a:x"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := readString(tt.input, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := labelsText(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
			if tt.labels != nil && !reflect.DeepEqual(c.Labels, tt.labels) {
				t.Errorf("labels %q, want %q", c.Labels, tt.labels)
			}
			for _, d := range c.Docs {
				if d.Labels != nil || d.Fields != nil {
					t.Errorf("%s: Labels %q Fields %v without MultiLabel or ExtraFields", d.ID, d.Labels, d.Fields)
				}
			}
		})
	}
}

func TestReadRecordErrors(t *testing.T) {
	tests := []struct {
		name, input string
		opts        Options
		want        string
	}{
		{"fasttext several labels", "__label__a x\n__label__a __label__b y\n", Options{}, "stdin:2: 2 labels on one record (a, b)"},
		{"fasttext no label", "__label__a x\nno label here\n", Options{Format: FormatFastText}, "stdin:2: no label: want __label__LABEL before the text"},
		{"fasttext empty label", "__label__ x\n", Options{Format: FormatFastText}, "stdin:1: empty label"},
		{"csv without header", "ham,hello\n", Options{Format: FormatCSV}, `stdin:1: the header has no column "label"`},
		{"csv field count", "label,text\na,x\nb\n", Options{}, "stdin:3: wrong number of fields"},
		{"csv bare quote", "label,text\na,x \"y\" z\n", Options{}, "stdin:2: "},
		{"csv empty label", "label,text\n  ,x\n", Options{}, "stdin:2: empty label"},
		{"tsv header missing text", "label\treview\na\tx\n", Options{}, "stdin:1: the first row names some fields but not all of label, text"},
		{"tsv named fields without header", "a\tx\n", Options{Format: FormatTSV, LabelField: "y"}, "stdin:1: no header row naming y, text"},
		{"tsv header short row", "label\ttext\na\n", Options{}, "stdin:2: 1 fields, the header has 2"},
		{"tsv empty label after trim", "a\tx\n \t y\n", Options{}, "stdin:2: empty label"},
		{"jsonl array label", `{"label":["a","b"],"text":"x"}`, Options{}, "stdin:1: 2 labels on one record (a, b)"},
		{"jsonl null label", `{"label":null,"text":"x"}`, Options{}, `stdin:1: "label" must be a string, number or boolean (or an array of them), got null`},
		{"jsonl missing key", `{"sentiment":1,"text":"x"}`, Options{LabelField: "y"}, `stdin:1: missing "y"`},
		{"jsonl text number", `{"label":1,"text":2}`, Options{}, `stdin:1: "text" must be a string, got number`},
		{"label sep without multi-label", "a|b\tx\n", Options{LabelSep: "|"}, "stdin:1: 2 labels on one record (a, b)"},
		{"extra fields on fasttext", "__label__a x\n", Options{ExtraFields: []string{"id"}}, "stdin: extra fields need named fields"},
		{"extra field not in csv header", "label,text\na,x\n", Options{ExtraFields: []string{"id"}}, `stdin:1: the header has no column "id"`},
		{"nul line", "a\tx\x00y\n", Options{}, "stdin:1: NUL byte in line"},
		{"nul csv", "label,text\na,x\x00\n", Options{}, "stdin:2: NUL byte in record"},
		{"split on lines", "a\tx\n", Options{Split: "train"}, "stdin: --split applies to folder trees and archives, not to tsv"},
		{"stdin shows no format", "a\tx\nno tab here\n", Options{}, "stdin:2: missing tab between label and text"},
		{"stdin binary", "\x00\x01\x02", Options{}, "stdin:1: NUL byte in line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := readString(tt.input, tt.opts)
			if err == nil {
				t.Fatalf("no error; read %q", labelsText(c))
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %q\nwant prefix %q", err, tt.want)
			}
		})
	}
}

func TestReadMultiLabelAndFields(t *testing.T) {
	opts := Options{MultiLabel: true}
	c, err := readString("__label__a __label__b __label__a two labels\n__label__c one\n", opts)
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Docs[0]; d.Label != "a" || !reflect.DeepEqual(d.Labels, []string{"a", "b"}) || d.Text != "two labels" {
		t.Errorf("doc 0 = %+v", d)
	}
	if d := c.Docs[1]; !reflect.DeepEqual(d.Labels, []string{"c"}) {
		t.Errorf("doc 1 = %+v", d)
	}
	if !reflect.DeepEqual(c.Labels, []string{"a", "b", "c"}) {
		t.Errorf("labels %q", c.Labels)
	}

	c, err = readString(`{"label":["x",2],"text":"t","id":7,"lang":"en","n":null}`+"\n"+`{"label":"y","text":"u"}`,
		Options{MultiLabel: true, ExtraFields: []string{"id", "lang", "n"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Docs[0]; !reflect.DeepEqual(d.Labels, []string{"x", "2"}) || !reflect.DeepEqual(d.Fields, map[string]string{"id": "7", "lang": "en"}) {
		t.Errorf("jsonl doc 0 = %+v", d)
	}
	if d := c.Docs[1]; d.Fields != nil {
		t.Errorf("jsonl doc 1 has fields %v, want none", d.Fields)
	}

	c, err = readString("id,label,text,lang\n7,a|b,t,\n8,c,u,fr\n", Options{MultiLabel: true, LabelSep: "|", ExtraFields: []string{"id", "lang"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Docs[0]; !reflect.DeepEqual(d.Labels, []string{"a", "b"}) || !reflect.DeepEqual(d.Fields, map[string]string{"id": "7"}) {
		t.Errorf("csv doc 0 = %+v", d)
	}
	if d := c.Docs[1]; !reflect.DeepEqual(d.Fields, map[string]string{"id": "8", "lang": "fr"}) {
		t.Errorf("csv doc 1 = %+v", d)
	}

	c, err = readString("id\tlabel\ttext\n9\ta\tx\n\tb\ty\n", Options{ExtraFields: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Docs[0].Fields, map[string]string{"id": "9"}) || c.Docs[1].Fields != nil || c.Docs[0].Labels != nil {
		t.Errorf("tsv with header: %+v", c.Docs)
	}

	// The class filter keeps a record with any kept label, and only those.
	c, err = readString("__label__a __label__b x\n__label__c y\n", Options{MultiLabel: true, Classes: []string{"b"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Docs) != 1 || c.Docs[0].Label != "b" || !reflect.DeepEqual(c.Labels, []string{"b"}) {
		t.Errorf("filtered: %+v, labels %q", c.Docs, c.Labels)
	}
}

// compressed returns data compressed with codec. Go's library only reads
// bzip2, so bzip2 data come from testdata/bzip2, one file per content
// named by the first 16 hex digits of its SHA-256 (made with Python's bz2).
func compressed(t *testing.T, codec string, data []byte) []byte {
	t.Helper()
	if codec == codecBzip2 {
		sum := sha256.Sum256(data)
		b, err := os.ReadFile(filepath.Join("testdata", "bzip2", hex.EncodeToString(sum[:])[:16]+".bz2"))
		if err != nil {
			t.Fatalf("no bzip2 fixture for %q: %v", data[:min(len(data), 20)], err)
		}
		return b
	}
	var b bytes.Buffer
	var w io.WriteCloser
	var err error
	switch codec {
	case codecGzip:
		w = gzip.NewWriter(&b)
	case codecZstd:
		w, err = zstd.NewWriter(&b)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A gzipped TSV failed with "NUL byte in line".
func TestReadCompressed(t *testing.T) {
	inputs := map[string]string{
		"tsv":      "a\tx\nb\ty\n",
		"csv":      "label,text\na,x\nb,y\n",
		"jsonl":    `{"label":"a","text":"x"}` + "\n" + `{"label":"b","text":"y"}` + "\n",
		"fasttext": "__label__a x\n__label__b y\n",
	}
	want := []string{"a:x", "b:y"}
	ext := map[string]string{codecGzip: ".gz", codecZstd: ".zst", codecBzip2: ".bz2"}
	dir := t.TempDir()
	for format, input := range inputs {
		for _, codec := range []string{codecGzip, codecZstd, codecBzip2} {
			data := compressed(t, codec, []byte(input))
			c, err := ReadFrom(bytes.NewReader(data), "stdin", Options{})
			if err != nil {
				t.Fatalf("%s %s on stdin: %v", format, codec, err)
			}
			if got := labelsText(c); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s on stdin: %q", format, codec, got)
			}
			name := "data." + format
			if format == "fasttext" {
				name = "data.txt"
			}
			p := filepath.Join(dir, name+ext[codec])
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if c, err = Read(p, Options{}); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if got := labelsText(c); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %q", p, got)
			}
		}
	}
	// A name that announces a compression the bytes do not have.
	p := filepath.Join(dir, "plain.tsv.gz")
	os.WriteFile(p, []byte(inputs["tsv"]), 0o644)
	if _, err := Read(p, Options{}); err == nil || err.Error() != p+": not a gzip file" {
		t.Errorf("plain bytes named .gz: %v", err)
	}
	// A zstd tar archive is read by its magic bytes.
	tz := filepath.Join(dir, "tree.tar.zst")
	os.WriteFile(tz, compressed(t, codecZstd, tarBytes(t, []member{{"a/1", "one"}, {"b/2", "two"}}, false)), 0o644)
	c, err := Read(tz, Options{})
	if err != nil || !reflect.DeepEqual(labelsText(c), []string{"a:one", "b:two"}) {
		t.Errorf("%s: %v %v", tz, err, c)
	}
}

// TestReadTruncated checks that a compressed corpus cut short says so,
// naming the compression, on stdin (where the format is sniffed: it said
// "cannot tell the format") and as a file (it said "unexpected EOF").
func TestReadTruncated(t *testing.T) {
	data := []byte("__label__a x\n__label__b y\n")
	dir := t.TempDir()
	for _, codec := range []string{codecGzip, codecZstd, codecBzip2} {
		z := compressed(t, codec, data)
		cut := z[:len(z)-len(z)/3]
		want := codec + " stream cut short"
		if _, err := ReadFrom(bytes.NewReader(cut), "stdin", Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s cut short on stdin: %v, want %q", codec, err, want)
		}
		p := filepath.Join(dir, "data.txt")
		if err := os.WriteFile(p, cut, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p, Options{Format: FormatFastText}); err == nil || !strings.HasPrefix(err.Error(), p+":") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s cut short in a file: %v, want %q", codec, err, want)
		}
	}
}

func TestDecompress(t *testing.T) {
	for _, codec := range []string{codecGzip, codecZstd, codecBzip2, codecNone} {
		data := []byte(strings.Repeat("some text\n", 1000))
		in := data
		if codec != codecNone {
			in = compressed(t, codec, data)
		}
		r, err := Decompress(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%q: %d bytes, %v", codec, len(got), err)
		}
	}
	if _, err := Decompress(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0})); err == nil {
		t.Error("a broken gzip header gave no error")
	}
}

// stalling returns its data, then errStall as a stream that has nothing
// more yet (tail -f) would block.
type stalling struct{ data []byte }

var errStall = errors.New("read past what the stream has sent so far")

func (s *stalling) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, errStall
	}
	n := copy(p, s.data)
	s.data = s.data[n:]
	return n, nil
}

// TestDecompressReadsNoFurther checks that telling plain text from a
// compressed stream reads no more than the stream has sent: a first line
// "hi\n" (3 bytes) was held until a fourth byte came (Peek(4)).
func TestDecompressReadsNoFurther(t *testing.T) {
	for _, first := range []string{"hi\n", "B\n", "BZ\n", "(\n", "\x1f\n"} {
		r, err := Decompress(&stalling{data: []byte(first)})
		if err != nil {
			t.Fatalf("%q: %v", first, err)
		}
		got := make([]byte, len(first))
		if _, err := io.ReadFull(r, got); err != nil || string(got) != first {
			t.Errorf("%q: read %q, %v", first, got, err)
		}
	}
}

func TestReadSniffsFormat(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"cooking.train": "__label__baking bread\n__label__eggs boil\n",
		"data.txt":      "__label__baking bread\n__label__eggs boil\n",
		"data.dat":      "label,text\nbaking,bread\neggs,boil\n",
		"data.json":     `{"label":"baking","text":"bread"}` + "\n" + `{"label":"eggs","text":"boil"}`,
		"tree.bin":      string(tarBytes(t, []member{{"baking/1", "bread"}, {"eggs/2", "boil"}}, true)),
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		c, err := Read(p, Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := labelsText(c); !reflect.DeepEqual(got, []string{"baking:bread", "eggs:boil"}) {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// endless is an endless stream of one byte.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// The readers grew without bound on an endless record (cat /dev/zero |
// nbtext vocab - reached 11 GB).
func TestReadBounds(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    io.Reader
		opts Options
		want string
	}{
		{"endless NUL", endless(0), Options{}, "stdin:1: NUL byte in line"},
		{"endless NUL csv", endless(0), Options{Format: FormatCSV}, "stdin:1: NUL byte in record"},
		{"endless line", endless('a'), Options{MaxDocBytes: 1 << 20}, "stdin:1: document larger than 1048576 bytes"},
		{"endless jsonl", io.MultiReader(strings.NewReader(`{"label":"a","text":"`), endless('a')), Options{MaxDocBytes: 1 << 20}, "stdin:1: document larger than 1048576 bytes"},
		{"endless csv", io.MultiReader(strings.NewReader("label,text\na,\""), endless('a')), Options{MaxDocBytes: 1 << 20}, "stdin:2: document larger than 1048576 bytes"},
		{"long line", strings.NewReader("a\tshort\nb\t" + strings.Repeat("x", 100) + "\n"), Options{MaxDocBytes: 50}, "stdin:2: document larger than 50 bytes"},
		{"long csv record", strings.NewReader("label,text\na,x\nb,\"" + strings.Repeat("x\n", 50) + "\"\n"), Options{MaxDocBytes: 50}, "stdin:3: document larger than 50 bytes"},
		{"big member", bytes.NewReader(tarBytes(t, []member{{"a/1", "small"}, {"a/2", strings.Repeat("x", 100)}}, true)), Options{Format: FormatTar, MaxDocBytes: 50}, "stdin: a/2: document larger than 50 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadFrom(tt.r, "stdin", tt.opts)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	dir := writeTree(t, map[string]string{"a/1": "small", "b/2": strings.Repeat("y", 100)})
	if _, err := Read(dir, Options{MaxDocBytes: 50}); err == nil || !strings.HasSuffix(err.Error(), "b/2: document larger than 50 bytes (raise --max-doc-bytes)") {
		t.Errorf("big file in a tree: %v", err)
	}
	if c, err := Read(dir, Options{MaxDocBytes: 100}); err != nil || len(c.Docs) != 2 {
		t.Errorf("file of exactly the bound: %v", err)
	}
}

func TestReadRefusesNonRegular(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	_, err := Read(os.DevNull, Options{})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("%s: %v", os.DevNull, err)
	}
}

// The aclImdb layout: split folders one level below a top folder that also
// holds files, non-documents beside the label folders, an unlabelled
// unsup folder.
func TestReadAclImdbLayout(t *testing.T) {
	files := map[string]string{
		"aclImdb/README":              "r",
		"aclImdb/imdb.vocab":          "v",
		"aclImdb/train/pos/1_9.txt":   "good",
		"aclImdb/train/pos/2_8.txt":   "fine",
		"aclImdb/train/neg/3_1.txt":   "bad",
		"aclImdb/train/unsup/4_0.txt": "meh",
		"aclImdb/train/urls_pos.txt":  "http://x",
		"aclImdb/test/pos/5_10.txt":   "great",
		"aclImdb/test/neg/6_2.txt":    "awful",
	}
	dir := writeTree(t, files)
	tarPath := writeTar(t, t.TempDir(), "imdb.tar.gz", treeMembers(t, dir, ""))
	for _, src := range []string{dir, tarPath} {
		var w collect
		c, err := Read(src, Options{Split: "train", Warn: w.warn})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"aclImdb/train/neg/3_1.txt", "aclImdb/train/pos/1_9.txt", "aclImdb/train/pos/2_8.txt"}; !reflect.DeepEqual(ids(c), want) {
			t.Errorf("%s: ids %q", src, ids(c))
		}
		want := src + ": ignoring the unlabelled folder aclImdb/train/unsup (1 documents; name unsup in --classes to read it as a class); and 3 files not in a label folder: aclImdb/README, aclImdb/imdb.vocab, aclImdb/train/urls_pos.txt"
		if len(w) != 1 || w[0] != want {
			t.Errorf("%s: warnings %q\nwant %q", src, w, want)
		}
		if c, err = Read(src, Options{Split: "test", Warn: w.warn}); err != nil || len(c.Docs) != 2 {
			t.Errorf("%s test split: %v", src, err)
		}
		c, err = Read(src, Options{Split: "train", Classes: []string{"unsup", "pos"}})
		if err != nil || !reflect.DeepEqual(c.Labels, []string{"pos", "unsup"}) || len(c.Docs) != 3 {
			t.Errorf("%s with --classes unsup: %v %v", src, err, c)
		}
	}
}

// TestReadImdb reads the real IMDB archive's train split: 12,500 pos and
// 12,500 neg reviews, the unsup folder and the other files skipped.
func TestReadImdb(t *testing.T) {
	p := os.Getenv("NBTEXT_IMDB_TARBALL")
	if p == "" {
		t.Skip("set NBTEXT_IMDB_TARBALL to aclImdb.tar.gz to read the IMDB archive")
	}
	if testing.Short() {
		t.Skip("reads 216 MB of archive")
	}
	var w collect
	c, err := Read(p, Options{Split: "train", Warn: w.warn})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, d := range c.Docs {
		count[d.Label]++
	}
	if !reflect.DeepEqual(count, map[string]int{"pos": 12500, "neg": 12500}) || len(w) != 1 ||
		!strings.Contains(w[0], "aclImdb/train/unsup (50000 documents") {
		t.Errorf("counts %v, warnings %q", count, w)
	}
	// Stream gives the same documents in the same order (the archive is
	// sorted), with the same warning.
	var sw collect
	i := 0
	err = Stream(p, Options{Split: "train", Warn: sw.warn}, func(d Document) error {
		if i >= len(c.Docs) || !reflect.DeepEqual(d, c.Docs[i]) {
			return fmt.Errorf("document %d: %s, Read's differs", i, d.ID)
		}
		i++
		return nil
	})
	if err != nil || i != len(c.Docs) || !reflect.DeepEqual(sw, w) {
		t.Errorf("Stream: %d documents, %v, warnings %q", i, err, sw)
	}
}
