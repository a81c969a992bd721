package predict

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// randomInput returns n seeded random documents over s's words, one per
// line, with empty lines, unknown words, latin-1 bytes and CRLF endings
// mixed in, and no final newline.
func randomInput(s *synth, n int) string {
	var b []byte
	for i := range n {
		switch s.rng.IntN(50) {
		case 0:
			b = append(b, '\n') // empty document
		case 1:
			b = append(b, "caf\xe9 \xff "...)
			b = s.line(b, 5)
		case 2:
			b = s.line(b, 200) // a long one
		case 3:
			b = s.line(b, 10)
			b = append(b[:len(b)-1], "\r\n"...)
		default:
			b = s.line(b, 20)
		}
		if i == n-1 {
			b = bytes.TrimSuffix(b, []byte{'\n'})
		}
	}
	return string(b)
}

// TestDeterminism checks that the output does not depend on the number of
// workers: the pipeline keeps input order, and every worker scores alike.
func TestDeterminism(t *testing.T) {
	s := newSynth(3, 3000)
	m := synthModel(t, s, model.Multinomial, 2500, 7)
	input := randomInput(s, 4000)
	for _, opt := range []Options{
		{Format: FormatTSV},
		{Format: FormatJSON, TopK: 3, Explain: 2},
		{Input: InputNUL, Format: FormatTSV, Threshold: 0.5},
	} {
		in := input
		if opt.Input == InputNUL {
			in = strings.ReplaceAll(input, "\n", "\x00")
		}
		var first string
		for _, workers := range []int{1, 2, 8} {
			opt.Workers = workers
			out := mustStream(t, m, opt, in)
			if workers == 1 {
				first = out
				if n := strings.Count(out, "\n"); n != 4000 {
					t.Fatalf("%+v: %d results, want 4000", opt, n)
				}
				continue
			}
			if out != first {
				t.Errorf("%+v: output with %d workers differs from 1 worker's", opt, workers)
			}
		}
	}
}

// TestStreamMatchesScorer checks each streamed decision against the
// model's own Vectorizer and Scorer, document by document: batching,
// the byte arena and the recycled buffers must not mix documents up.
func TestStreamMatchesScorer(t *testing.T) {
	s := newSynth(4, 3000)
	m := synthModel(t, s, model.Bernoulli, 2500, 5)
	input := randomInput(s, 3000)
	out := mustStream(t, m, Options{Format: FormatTSV, Workers: 3}, input)
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	lines := strings.Split(input, "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d results for %d lines", len(got), len(lines))
	}
	vz := m.Vocab.NewVectorizer()
	sc := m.NewScorer()
	for i, line := range lines {
		line = corpus.Decode([]byte(strings.TrimSuffix(line, "\r")))
		ind, val := vz.Vectorize(line)
		m.Vocab.WeightRow(ind, val)
		want := fmt.Sprintf("%d\t%s\t", i+1, m.Classes[sc.Predict(ind, val).Class])
		if !strings.HasPrefix(got[i], want) {
			t.Fatalf("line %d: got %q, want %q...", i+1, got[i], want)
		}
	}
}

// TestStreamPipelineStage runs Stream as a pipeline stage would run, with
// a pipe for stdin and one for stdout, and checks that the answer to each
// line arrives before the next line is written and before stdin closes:
// 'tail -f log | nbtext predict' answers every line as it comes. The
// timeouts are generous: this checks the order of events, not speed.
func TestStreamPipelineStage(t *testing.T) {
	const timeout = 10 * time.Second
	m := toyModel(t, model.Multinomial)
	for _, tt := range []struct {
		name   string
		input  string
		writes []string // written one at a time
		want   []string // the answers each write must get before the next ("a;b" for two)
		tail   string   // the answer that comes only when stdin closes
	}{
		{"lines", InputLines,
			[]string{"the car engine\n", "the senate votes\n", "\n", "a rocket in orbit\r\n", "the car\nthe tax\n", "the senate votes on the tax", " bill\n", "rocket orbit"},
			[]string{"1\tautos", "2\tpolitics", "3\tautos", "4\tspace", "5\tautos;6\tpolitics", "", "7\tpolitics", ""},
			"8\tspace"},
		// A write that ends inside a record gets the answers to the
		// records before it.
		{"lines cut", InputLines,
			[]string{"the car engine\nthe sen", "ate votes\nthe rocket orbit"},
			[]string{"1\tautos", "2\tpolitics"},
			"3\tspace"},
		// Blank lines after a record do not hold its answer back.
		{"jsonl", InputJSONL,
			[]string{`{"id": "a", "text": "the car engine"}` + "\n\n", "  \n", `{"id": "b", "text": "the senate votes"}` + "\n"},
			[]string{"a\tautos", "", "b\tpolitics"},
			""},
		{"nul", InputNUL,
			[]string{"the car\nengine\x00", "the senate votes\x00"},
			[]string{"1\tautos", "2\tpolitics"},
			""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newPredictor(t, m, Options{Input: tt.input, Format: FormatTSV, Workers: 2})
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() {
				_, err := p.Stream(context.Background(), inR, "stdin", NewWriter(outW))
				outW.CloseWithError(err)
				done <- err
			}()
			lines := make(chan string)
			go func() {
				defer close(lines)
				sc := bufio.NewScanner(outR)
				for sc.Scan() {
					lines <- sc.Text()
				}
			}()
			expect := func(want, after string) {
				t.Helper()
				select {
				case got, ok := <-lines:
					if !ok {
						t.Fatalf("after %s: output closed, want %q", after, want)
					}
					if !strings.HasPrefix(got, want+"\t") {
						t.Fatalf("after %s: got %q, want %q...", after, got, want)
					}
				case <-time.After(timeout):
					t.Fatalf("after %s: no answer within %v, want %q", after, timeout, want)
				}
			}
			for i, w := range tt.writes {
				if _, err := io.WriteString(inW, w); err != nil {
					t.Fatal(err)
				}
				if tt.want[i] == "" {
					continue
				}
				for _, want := range strings.Split(tt.want[i], ";") {
					expect(want, fmt.Sprintf("writing %q", w))
				}
			}
			// A record without its separator is not answered while it may
			// still grow.
			select {
			case got := <-lines:
				t.Fatalf("answer %q before stdin closed", got)
			case <-time.After(20 * time.Millisecond):
			}
			inW.Close()
			if tt.tail != "" {
				expect(tt.tail, "closing stdin")
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(timeout):
				t.Fatalf("Stream did not return within %v of stdin closing", timeout)
			}
			for got := range lines {
				t.Errorf("unexpected answer %q", got)
			}
		})
	}
}

// TestStreamMalformedRecordInLine checks that a malformed record is
// answered in its place, as a failed document reported to Warn, and the
// documents after it are answered, whatever the batching (issue 28, item
// 11: one bad line no longer ends a tail -f pipeline).
func TestStreamMalformedRecordInLine(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	var in strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&in, "{\"id\": %d, \"text\": \"the car\"}\n", i)
	}
	in.WriteString("{\"id\": 1000, \"text\": \n{\"text\": \"the car\"}\n")
	for _, workers := range []int{1, 4} {
		var warned []string
		out, err := stream(t, m, Options{Input: InputJSONL, Format: FormatTSV, Workers: workers, Warn: func(s string) { warned = append(warned, s) }}, in.String())
		if err != nil {
			t.Fatal(err)
		}
		if len(warned) != 1 || !strings.HasPrefix(warned[0], "stdin:1001: invalid JSON") {
			t.Errorf("warnings %q, want stdin:1001: invalid JSON...", warned)
		}
		if n := strings.Count(out, "\n"); n != 1002 || !strings.Contains(out, "\n999\tautos\t") || !strings.Contains(out, "\n1001\t\t\n1002\tautos\t") {
			t.Errorf("%d results, want 1002 with 1001 failed; output ends %q", n, out[max(0, len(out)-40):])
		}
	}
}

// errWriter fails every write.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestStreamWriteError(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	p := newPredictor(t, m, Options{})
	in := strings.Repeat("the car\n", 10000)
	_, err := p.Stream(context.Background(), strings.NewReader(in), "stdin", &errWriter{})
	if err == nil || err.Error() != "disk full" {
		t.Errorf("error %v, want disk full", err)
	}
}

func TestStreamCancel(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	p := newPredictor(t, m, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.Stream(ctx, strings.NewReader(strings.Repeat("the car\n", 10000)), "stdin", io.Discard)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// writeFiles writes name → content under a new folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// files runs Files with opt over paths (stdin: stdin) and returns the
// output lines, the warnings and the error.
func files(t *testing.T, m *model.Model, opt Options, stdin string, paths ...string) ([]string, []string, Stats, error) {
	t.Helper()
	var warnings []string
	opt.Warn = func(msg string) { warnings = append(warnings, msg) }
	p := newPredictor(t, m, opt)
	var out bytes.Buffer
	st, err := p.Files(context.Background(), paths, strings.NewReader(stdin), &out)
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n"), warnings, st, err
}

// TestFiles checks the arguments of predict: a plain file is framed as
// stdin is (one document per line by default, ids FILE:N), "-" is stdin,
// and in a folder or an archive each file is one document whose id is its
// path, folders walked in byte order. A file with NUL bytes in a folder is
// answered in its place with an empty label and a warning.
func TestFiles(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	dir := writeFiles(t, map[string]string{
		"one.txt":     "the car engine\nthe senate votes on the tax bill\n\na rocket in orbit",
		"posts/b":     "the senate votes on the tax bill",
		"posts/a":     "a rocket put the satellite in orbit",
		"posts/sub/c": "",
		"posts/bin":   "the car\x00\x01",
	})
	one, posts := filepath.Join(dir, "one.txt"), filepath.Join(dir, "posts")
	got, warnings, st, err := files(t, m, Options{Format: FormatTSV}, "the tax bill\n", one, posts, Stdin)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		one + ":1\tautos\t", one + ":2\tpolitics\t", one + ":3\tautos\t", one + ":4\tspace\t",
		filepath.Join(posts, "a") + "\tspace\t",
		filepath.Join(posts, "b") + "\tpolitics\t",
		filepath.Join(posts, "bin") + "\t\t\n",
		filepath.Join(posts, "sub", "c") + "\tautos\t",
		"stdin:1\tpolitics\t",
	}
	if len(got) != len(want) {
		t.Fatalf("output:\n%s", strings.Join(got, "\n"))
	}
	for i, w := range want {
		if w, exact := strings.CutSuffix(w, "\n"); exact && got[i] != w || !exact && !strings.HasPrefix(got[i], w) {
			t.Errorf("line %d: %q, want %q", i+1, got[i], w)
		}
	}
	if st.Docs != 9 || st.Empty != 2 || st.Failed != 1 {
		t.Errorf("stats %+v, want 9 docs, 2 empty, 1 failed", st)
	}
	// One warning for the NUL bytes of bin and, in text output, which has
	// no field to mark them, one per document with no known word.
	var nul, empty int
	for _, w := range warnings {
		switch {
		case w == filepath.Join(posts, "bin")+": contains NUL bytes: not text":
			nul++
		case strings.HasSuffix(w, ": no word the model knows: answered from its biases (the prior) alone"):
			empty++
		}
	}
	if len(warnings) != 3 || nul != 1 || empty != 2 {
		t.Errorf("warnings %q, want one about the NUL bytes of bin and one per empty document", warnings)
	}
	// The same file, line by line, as stdin gives the same text answers;
	// with --input doc it is one document.
	fromFile, _, _, err := files(t, m, Options{}, "", one)
	if err != nil {
		t.Fatal(err)
	}
	content, _ := os.ReadFile(one)
	if fromStdin := mustStream(t, m, Options{}, string(content)); strings.Join(fromFile, "\n")+"\n" != fromStdin {
		t.Errorf("file %q, stdin %q", fromFile, fromStdin)
	}
	if got, _, _, err := files(t, m, Options{Input: InputDoc, Format: FormatTSV}, "", one); err != nil || len(got) != 1 || !strings.HasPrefix(got[0], one+"\t") {
		t.Errorf("--input doc: %q, %v", got, err)
	}
	if got, _, _, err := files(t, m, Options{Input: InputJSONL, Format: FormatTSV}, "", writeFiles(t, map[string]string{"x.jsonl": `{"text": "orbit"}` + "\n"})+"/x.jsonl"); err != nil || len(got) != 1 || !strings.HasSuffix(strings.Split(got[0], "\t")[0], "x.jsonl:1") {
		t.Errorf("--input jsonl: %q, %v", got, err)
	}
	// A compressed file is read as its content is, whatever its name.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(content)
	zw.Close()
	gzPath := filepath.Join(dir, "one.txt.gz")
	if err := os.WriteFile(gzPath, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, _, err := files(t, m, Options{}, "", gzPath); err != nil || strings.Join(got, "\n") != strings.Join(fromFile, "\n") {
		t.Errorf("gzip file: %q, %v; want %q", got, err, fromFile)
	}
	if got, _, _, err := files(t, m, Options{Format: FormatTSV}, "", gzPath); err != nil || !strings.HasPrefix(got[3], gzPath+":4\t") {
		t.Errorf("gzip file ids: %q, %v", got, err)
	}
	// Compressed on stdin too: the same answers (before, the gzip bytes
	// were framed as lines and scored).
	if got := mustStream(t, m, Options{}, gz.String()); got != strings.Join(fromFile, "\n")+"\n" {
		t.Errorf("gzip on stdin: %q, want %q", got, fromFile)
	}
	if got, _, _, err := files(t, m, Options{}, gz.String(), "-"); err != nil || strings.Join(got, "\n") != strings.Join(fromFile, "\n") {
		t.Errorf("gzip on stdin as -: %q, %v", got, err)
	}
	// Every path is checked before anything is written.
	for _, bad := range []struct{ path, want string }{
		{filepath.Join(dir, "nope"), filepath.Join(dir, "nope") + ": no such file or directory"},
		{"/dev/zero", "/dev/zero: not a regular file (a character device); only stdin may be a device or a pipe"},
	} {
		if _, err := os.Stat(bad.path); bad.path == "/dev/zero" && err != nil {
			continue
		}
		got, _, _, err := files(t, m, Options{}, "", one, bad.path)
		if err == nil || err.Error() != bad.want || got[0] != "" {
			t.Errorf("%s: output %q, error %v, want %q", bad.path, got, err, bad.want)
		}
	}
}

// writeTar writes the named files of dir into an archive and returns its
// path.
func writeTar(t *testing.T, dir string, names ...string) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "posts.tar")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOutputLinesUp is the regression test of issue 12 item 11: a
// document predict cannot read (NUL bytes, over --max-doc-bytes) used to
// be dropped, so every later answer sat beside the wrong input. Each gets
// its answer in its place now: "?" in text, an empty label in TSV, an
// "error" field in JSON, and a warning, in order.
func TestOutputLinesUp(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	dir := writeFiles(t, map[string]string{
		"1": "the car engine needs oil",
		"2": "binary\x00junk",
		"3": "the senate votes on the tax bill " + strings.Repeat("tax ", 30),
		"4": "a rocket in orbit",
		"5": "the tax bill",
	})
	in := "the car engine needs oil\n" + strings.Repeat("senate ", 30) + "\na rocket in orbit\n"
	tar := writeTar(t, dir, "1", "2", "3", "4", "5")
	for _, tt := range []struct {
		name   string
		opt    Options
		stdin  string
		paths  []string
		want   []string
		failed []int // 1-based output lines that failed
	}{
		{"folder text", Options{MaxDocBytes: 100}, "", []string{dir}, []string{"autos", "?", "?", "space", "politics"}, []int{2, 3}},
		{"archive text", Options{MaxDocBytes: 100}, "", []string{tar}, []string{"autos", "?", "?", "space", "politics"}, []int{2, 3}},
		{"stdin lines text", Options{MaxDocBytes: 100}, in, []string{Stdin}, []string{"autos", "?", "space"}, []int{2}},
		{"folder tsv", Options{MaxDocBytes: 100, Format: FormatTSV, TopK: 2}, "", []string{dir}, []string{
			filepath.Join(dir, "1") + "\tautos\t…", filepath.Join(dir, "2") + "\t\t\t\t", filepath.Join(dir, "3") + "\t\t\t\t",
			filepath.Join(dir, "4") + "\tspace\t…", filepath.Join(dir, "5") + "\tpolitics\t…"}, []int{2, 3}},
		// A line or a whole file with NUL bytes is not text (before, it
		// was scored as if it were).
		{"stdin NUL line", Options{Format: FormatTSV}, "the tax bill\nbinary\x00junk\na rocket in orbit\n", []string{Stdin}, []string{
			"stdin:1\tpolitics\t…", "stdin:2\t\t", "stdin:3\tspace\t…"}, []int{2}},
		{"file with NUL as doc", Options{Input: InputDoc, Format: FormatJSON}, "", []string{filepath.Join(dir, "2")}, []string{
			`{"id":"` + filepath.Join(dir, "2") + `","label":"","probs":{},"error":"` + filepath.Join(dir, "2") + `: contains NUL bytes: not text"}`}, []int{1}},
		{"stdin lines json", Options{MaxDocBytes: 100, Format: FormatJSON}, in, []string{Stdin}, []string{
			`{"id":"stdin:1","label":"autos",…`,
			`{"id":"stdin:2","label":"","probs":{},"error":"stdin:2: document larger than 100 bytes (raise --max-doc-bytes)"}`,
			`{"id":"stdin:3","label":"space",…`}, []int{2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, st, err := files(t, m, tt.opt, tt.stdin, tt.paths...)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d answers for %d documents:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				// A want ending in "…" is a prefix; any other is exact.
				if prefix, ok := strings.CutSuffix(w, "…"); ok && !strings.HasPrefix(got[i], prefix) || !ok && got[i] != w {
					t.Errorf("answer %d: %q, want %q", i+1, got[i], w)
				}
			}
			if st.Failed != len(tt.failed) || len(warnings) != len(tt.failed) {
				t.Errorf("stats %+v, warnings %q, want %d failed", st, warnings, len(tt.failed))
			}
			if tt.opt.Format == FormatJSON {
				checkJSONLines(t, strings.Join(got, "\n")+"\n")
			}
		})
	}
}

// TestStripHeaders checks that a model trained on posts without their
// headers strips them from whole documents but not from single lines,
// which have no header (stripping would empty them).
func TestStripHeaders(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	m.Vocab.Settings.Remove = "headers"
	post := "From: someone\nSubject: the senate\n\nthe car engine needs oil\n"
	if out := mustStream(t, m, Options{Input: InputDoc, Format: FormatJSON}, post); !strings.Contains(out, `"label":"autos"`) {
		t.Errorf("doc: %s, want the body (autos) only", out)
	}
	if out := mustStream(t, m, Options{Format: FormatJSON}, "the car engine needs oil\n"); strings.Contains(out, "empty") || !strings.Contains(out, `"label":"autos"`) {
		t.Errorf("lines: %s, want the line kept", out)
	}
}

// TestBatchRecycling streams several runs through one Predictor, with
// documents large enough to grow the batch buffers beyond what the pool
// keeps, and checks every run gives the same output.
func TestBatchRecycling(t *testing.T) {
	m := toyModel(t, model.Multinomial)
	p := newPredictor(t, m, Options{Format: FormatTSV, Workers: 2})
	big := strings.Repeat("the senate votes ", maxScratch/8)
	in := "the car\n" + big + "\n" + strings.Repeat("a rocket in orbit\n", 3000) + big
	var first string
	for i := range 3 {
		var out bytes.Buffer
		if _, err := p.Stream(context.Background(), strings.NewReader(in), "stdin", &out); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = out.String()
			if n := strings.Count(first, "\n"); n != 3003 {
				t.Fatalf("%d results, want 3003", n)
			}
		} else if out.String() != first {
			t.Errorf("run %d differs from run 1", i+1)
		}
	}
}
