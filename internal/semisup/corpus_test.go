package semisup

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestEM20News: on four groups of 20 Newsgroups, with 10 labelled posts
// per group and the rest of the train split unlabelled, EM makes at least
// 25% fewer errors on the test split than the same naive Bayes on the
// labelled posts alone (with their own vocabulary, as train --per-class
// fits it).
func TestEM20News(t *testing.T) {
	path := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if path == "" {
		t.Skip("NBTEXT_20NEWS_TARBALL not set")
	}
	groups := []string{"comp.graphics", "rec.autos", "sci.med", "talk.politics.guns"}
	opts := corpus.Options{Split: "train", Classes: groups, Remove: corpus.RemoveHeaders}
	trc, err := corpus.Read(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Split = "test"
	tec, err := corpus.Read(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	kind := model.Multinomial
	s, p := Defaults(kind)
	ytr := trc.LabelIDs()
	keep, rest := corpus.PerClass(ytr, 10, rand.New(rand.NewPCG(1, 2)))
	texts, y := corpus.Pick(trc.Texts(), keep), corpus.Pick(ytr, keep)

	bv, bX, err := train.Prepare(texts, y, len(trc.Labels), s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, err := train.FitNB(kind, bX, y, trc.Labels, bv, p)
	if err != nil {
		t.Fatal(err)
	}
	baseAcc := train.Accuracy(base, train.PrepareWith(bv, tec.Texts(), 0), tec.LabelIDs(), 0)

	unl := corpus.Pick(trc.Texts(), rest)
	vocab, err := vectorize.FitVocabulary(append(append([]string{}, texts...), unl...), nil, 0, s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	U, err := NewUnlabeled(vocab, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer U.Close()
	for _, u := range unl {
		if err := U.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	r, err := FitEM(kind, train.PrepareWith(vocab, texts, 0), y, trc.Labels, vocab, p, U, Options{Weight: 1, MaxIter: DefaultMaxIter, Tol: DefaultTol})
	if err != nil {
		t.Fatal(err)
	}
	emAcc := train.Accuracy(r.Model, train.PrepareWith(vocab, tec.Texts(), 0), tec.LabelIDs(), 0)
	t.Logf("%d labelled, %d unlabelled: accuracy %.4f -> %.4f with EM (%d iterations)", len(texts), U.Rows(), baseAcc, emAcc, r.Iterations)
	if 1-emAcc > 0.75*(1-baseAcc) {
		t.Fatalf("EM errors %.4f, labelled only %.4f: want at least 25%% fewer", 1-emAcc, 1-baseAcc)
	}
}
