package search

import (
	"os"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/corpus"
)

// BenchmarkSearchBudget runs the default search on the 20 Newsgroups train
// split (NBTEXT_20NEWS_TARBALL) with a 10 s budget and the ensemble
// selection of 'train --auto', the final fit included,
// and reports how far past the budget it ended (the target: within 10%),
// how many candidates it scored and how many models the written model
// holds (an ensemble's members, or 1).
func BenchmarkSearchBudget(b *testing.B) {
	path := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if path == "" {
		b.Skip("NBTEXT_20NEWS_TARBALL not set: skipping the search on the real corpus")
	}
	c, err := corpus.Read(path, corpus.Options{Split: "train"})
	if err != nil {
		b.Fatal(err)
	}
	texts, y := c.Texts(), c.LabelIDs()
	const budget = 10 * time.Second
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		res, err := Run(texts, y, c.Labels, DefaultSpace(HasMailHeaders(texts)), "", nil,
			Options{Seed: 1, Budget: Budget{Amount: budget.Seconds()}, EnsembleRounds: DefaultEnsembleRounds})
		if err != nil {
			b.Fatal(err)
		}
		members := 1
		if res.Ensemble.Used {
			m, err := FitEnsemble(texts, y, c.Labels, res, 0)
			if err != nil {
				b.Fatal(err)
			}
			members = max(len(m.Members), 1)
		} else if _, _, _, err := Fit(texts, y, c.Labels, res.Best(), 0); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds()/budget.Seconds(), "of_budget")
		b.ReportMetric(float64(res.Scored), "scored")
		b.ReportMetric(float64(members), "members")
	}
}
