package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestHashFallback: a streamed count whose vocabulary keeps growing past
// the term tables' budget (membudget.TermTables, a quarter of a 64 MiB
// memory limit here) is counted again hashed, says so naming
// --hash-bits, and its model holds at most 2^bits buckets; under a
// budget it holds, the same corpus keeps every term, with no note; from
// standard input, which cannot be read again, it is an error naming
// --hash-bits.
func TestHashFallback(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "growing.tsv")
	var b strings.Builder
	for d := range 2000 {
		fmt.Fprintf(&b, "c%02d\t", d%20)
		for w := range 30 {
			fmt.Fprintf(&b, "w%dx%d common%d ", d/2, w, w) // 30 new words every other document
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	train := func(limit int64, stdin bool) (*model.Model, []string, error) {
		old := debug.SetMemoryLimit(limit)
		defer debug.SetMemoryLimit(old)
		var warned []string
		src := Source{Paths: []string{path}}
		if stdin {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			src = Source{Paths: []string{"-"}, Stdin: f}
			src.Options.Format = "tsv"
		}
		out := filepath.Join(dir, "m.nbm")
		_, err := Run(&Plan{
			Source: src, Kind: model.Bernoulli, Stream: StreamAlways, Workers: 2, Output: out,
			Warn: func(msg string) { warned = append(warned, msg) },
		})
		if err != nil {
			return nil, warned, err
		}
		m, err := model.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		return m, warned, nil
	}

	m, warned, err := train(64<<20, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "counting again with --hash-bits") {
		t.Fatalf("warnings %q: want one that says the count falls back to --hash-bits", warned)
	}
	bits := m.Vocab.Settings.HashBits
	if bits == 0 || m.Vocab.Len() > 1<<bits || !strings.Contains(warned[0], fmt.Sprintf("--hash-bits %d", bits)) {
		t.Fatalf("model of %d terms, hash bits %d, after %q: want a hashed model of at most 2^bits buckets, the bits named", m.Vocab.Len(), bits, warned[0])
	}

	m, warned, err = train(1<<40, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 0 || m.Vocab.Settings.HashBits != 0 || m.Vocab.Len() < 1000*30 {
		t.Fatalf("within the budget: warnings %q, hash bits %d, %d terms; want none, 0 and every term", warned, m.Vocab.Settings.HashBits, m.Vocab.Len())
	}

	if _, _, err = train(64<<20, true); err == nil || !strings.Contains(err.Error(), "--hash-bits") || !strings.Contains(err.Error(), "standard input") {
		t.Fatalf("from standard input: err %v; want one naming standard input and --hash-bits", err)
	}
}
