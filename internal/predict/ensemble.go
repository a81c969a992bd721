package predict

import (
	"github.com/nbtext/nbtext/internal/corpus"
)

// ensembleWorker is worker for an ensemble model: each member vectorizes
// and scores the text itself (model.EnsembleScorer).
func (p *Predictor) ensembleWorker(jobs <-chan *batch) {
	es := p.m.NewEnsembleScorer()
	f := newFormatter(p.m, p.opt)
	f.ens = es
	for b := range jobs {
		out := b.out[:0]
		for i := range b.recs {
			rec := &b.recs[i]
			b.st.Docs++
			if rec.fail != "" {
				out = f.appendFailed(out, rec)
				b.st.Failed++
				continue
			}
			text := rec.text
			if rec.raw {
				text = decodeInPlace(b.arena[rec.lo:rec.hi])
			}
			if p.strip != 0 {
				text = corpus.Strip(text, p.strip)
			}
			pr := es.Predict(text)
			out = f.append(out, rec, pr, nil, nil, nil)
			if pr.Empty {
				b.st.Empty++
			}
			if pr.Fallback {
				b.st.Fallback++
			}
		}
		b.out = out
		b.done <- struct{}{}
	}
}
