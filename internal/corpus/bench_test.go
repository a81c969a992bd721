package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// report adds docs/s and MB/s (of decoded text) to a benchmark that read c
// b.N times.
func report(b *testing.B, c *Corpus) {
	n := 0
	for _, d := range c.Docs {
		n += len(d.Text)
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(c.Docs)*b.N)/s, "docs/s")
	b.ReportMetric(float64(n*b.N)/s/1e6, "MB/s")
}

// benchRead benchmarks Read(p, opts).
func benchRead(b *testing.B, p string, opts Options) {
	b.ReportAllocs()
	var c *Corpus
	for b.Loop() {
		var err error
		if c, err = Read(p, opts); err != nil {
			b.Fatal(err)
		}
	}
	report(b, c)
}

// BenchmarkReadTarTrain reads the train split of the 20 Newsgroups archive:
// gunzip up to the end of the train half, parse, decode.
func BenchmarkReadTarTrain(b *testing.B) {
	benchRead(b, realCorpus(b), Options{Split: "train"})
}

// BenchmarkReadTarTest reads the test split, which lies after the train
// half: the whole archive is decompressed.
func BenchmarkReadTarTest(b *testing.B) {
	benchRead(b, realCorpus(b), Options{Split: "test"})
}

// BenchmarkReadDirTrain reads the train split from an unpacked folder.
func BenchmarkReadDirTrain(b *testing.B) {
	dir := unpack(b, realCorpus(b), func(name string) bool { return strings.HasPrefix(name, "20news-bydate-train/") })
	b.ResetTimer()
	benchRead(b, dir, Options{Split: "train"})
}

// BenchmarkReadDirTrainRemove adds stripping of headers, footers and
// quotes.
func BenchmarkReadDirTrainRemove(b *testing.B) {
	dir := unpack(b, realCorpus(b), func(name string) bool { return strings.HasPrefix(name, "20news-bydate-train/") })
	b.ResetTimer()
	benchRead(b, dir, Options{Split: "train", Remove: RemoveHeaders | RemoveFooters | RemoveQuotes})
}

// BenchmarkReadTSV reads synthetic TSV files of a ladder of sizes (seeded),
// documents of about 2 kB as in 20 Newsgroups.
func BenchmarkReadTSV(b *testing.B) {
	words := strings.Fields("the of and to in is that for it with as was on be by this are not or have from")
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, uint64(n)))
			var sb strings.Builder
			for i := range n {
				fmt.Fprintf(&sb, "class%d\t", i%20)
				for range 400 {
					sb.WriteString(words[r.IntN(len(words))])
					sb.WriteByte(' ')
				}
				sb.WriteByte('\n')
			}
			p := filepath.Join(b.TempDir(), "bench.tsv")
			if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			benchRead(b, p, Options{})
		})
	}
}

// BenchmarkStrip strips headers, footers and quotes from the train split.
func BenchmarkStrip(b *testing.B) {
	c, err := Read(realCorpus(b), Options{Split: "train"})
	if err != nil {
		b.Fatal(err)
	}
	all := RemoveHeaders | RemoveFooters | RemoveQuotes
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range c.Docs {
			Strip(d.Text, all)
		}
	}
	report(b, c)
}

// BenchmarkStreamArchive streams synthetic archives of a ladder of sizes
// (seeded; documents of about 2 kB under 20 label folders) with Stream and
// reads them with Read, reporting the peak live heap seen (sampled every
// 256 documents, after a GC): Stream's stays flat as the archive grows,
// Read's grows with it.
func BenchmarkStreamArchive(b *testing.B) {
	words := strings.Fields("the of and to in is that for it with as was on be by this are not or have from")
	for _, n := range []int{2000, 20000} {
		r := rand.New(rand.NewPCG(2, uint64(n)))
		ms := make([]member, n)
		for i := range ms {
			var sb strings.Builder
			for range 400 {
				sb.WriteString(words[r.IntN(len(words))])
				sb.WriteByte(' ')
			}
			ms[i] = member{fmt.Sprintf("train/class%02d/%06d", i%20, i), sb.String()}
		}
		p := writeTar(b, b.TempDir(), "bench.tgz", ms)
		ms = nil
		for _, how := range []string{"stream", "read"} {
			b.Run(fmt.Sprintf("%s/%d", how, n), func(b *testing.B) {
				b.ReportAllocs()
				var peak uint64
				sample := func() {
					runtime.GC()
					var st runtime.MemStats
					runtime.ReadMemStats(&st)
					peak = max(peak, st.HeapAlloc)
				}
				docs := 0
				for b.Loop() {
					docs = 0
					var err error
					if how == "stream" {
						err = Stream(p, Options{}, func(Document) error {
							if docs++; docs%256 == 0 {
								sample()
							}
							return nil
						})
					} else {
						var c *Corpus
						c, err = Read(p, Options{})
						sample()
						docs = len(c.Docs)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if docs != n {
					b.Fatalf("%d documents, want %d", docs, n)
				}
				// The sampling GCs dominate the time: no docs/s here.
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			})
		}
	}
}
