package predict

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// TestBytesInFlightBounded: the text of the batches in flight stays under
// Options.MaxBytesInFlight, however many workers, and a document larger
// than the bound still passes, alone; the answers do not change (issue
// 28, item 7). The peak is measured by the budget, not by RSS.
func TestBytesInFlightBounded(t *testing.T) {
	s := newSynth(5, 2000)
	m := synthModel(t, s, model.Multinomial, 1500, 4)
	var in strings.Builder
	var line []byte
	for i := 0; i < 200; i++ {
		line = s.line(line[:0], 2000) // about 10 KB a line
		in.Write(line)
		in.WriteByte('\n')
	}
	big := strings.Repeat(s.word()+" ", 12000) // past the bound
	in.WriteString(big + "\n")
	want := mustStream(t, m, Options{Format: FormatTSV, Workers: 1}, in.String())
	const limit = 32 << 10
	opt := Options{Format: FormatTSV, Workers: 8, MaxDocBytes: 128 << 10, MaxBytesInFlight: limit}
	p := newPredictor(t, m, opt)
	var budgets []*byteBudget
	p.onBudget = func(b *byteBudget) { budgets = append(budgets, b) }
	var out bytes.Buffer
	w := NewWriter(&out)
	if _, err := p.Stream(context.Background(), strings.NewReader(in.String()), "stdin", w); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if out.String() != want {
		t.Errorf("answers under a byte budget differ")
	}
	if len(budgets) != 1 {
		t.Fatalf("%d budgets", len(budgets))
	}
	if peak := budgets[0].peak; peak > limit || peak == 0 {
		t.Errorf("peak bytes in flight %d, bound %d", peak, limit)
	}
	if used := budgets[0].used; used != 0 {
		t.Errorf("%d bytes still held after the run", used)
	}
	if d := DefaultBytesInFlight(256 << 20); d != 512<<20 {
		t.Errorf("default for 256 MiB documents: %d", d)
	}
}
