package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
)

// goldenRuns are the training runs whose model files
// TestPipelineGolden pins, one per strategy and option a run can take:
// in memory for each kind, streamed, from counts, record fields,
// multi-label, semi-supervised EM, --keep-counts and update. Each run's
// arguments name {td} (testdata/pipeline) and {dir} (a scratch folder
// shared by the runs, in order); stdin, when not empty, is a file of {td}
// read as standard input. outs are the files of {dir} it writes.
var goldenRuns = []struct {
	name  string
	stdin string
	args  []string
	outs  []string
}{
	// In memory, each kind with its defaults.
	{"multinomial", "", []string{"train", "{td}/train.tsv", "--model", "multinomial", "-o", "{dir}/multinomial.nbm"}, []string{"multinomial.nbm"}},
	{"bernoulli", "", []string{"train", "{td}/train.tsv", "--model", "bernoulli", "-o", "{dir}/bernoulli.nbm"}, []string{"bernoulli.nbm"}},
	{"complement", "", []string{"train", "{td}/train.tsv", "--model", "complement", "-o", "{dir}/complement.nbm"}, []string{"complement.nbm"}},
	{"centroid", "", []string{"train", "{td}/train.tsv", "--model", "centroid", "-o", "{dir}/centroid.nbm"}, []string{"centroid.nbm"}},
	{"logreg", "", []string{"train", "{td}/train.tsv", "--model", "logreg", "-o", "{dir}/logreg.nbm"}, []string{"logreg.nbm"}},
	{"logreg-lbfgs", "", []string{"train", "{td}/train.tsv", "--model", "logreg", "--solver", "lbfgs", "-o", "{dir}/logreg-lbfgs.nbm"}, []string{"logreg-lbfgs.nbm"}},
	{"svm", "", []string{"train", "{td}/train.tsv", "--model", "svm", "-o", "{dir}/svm.nbm"}, []string{"svm.nbm"}},
	{"nblr", "", []string{"train", "{td}/train.tsv", "--model", "nblr", "-o", "{dir}/nblr.nbm"}, []string{"nblr.nbm"}},
	{"multinomial-count", "", []string{"train", "{td}/train.tsv", "--model", "multinomial", "--weighting", "count", "--min-df", "1", "-o", "{dir}/mn-count.nbm"}, []string{"mn-count.nbm"}},
	{"multinomial-alpha-auto", "", []string{"train", "{td}/train.tsv", "--alpha", "auto", "--folds", "3", "-o", "{dir}/mn-auto.nbm"}, []string{"mn-auto.nbm"}},
	{"svm-C-auto", "", []string{"train", "{td}/train.tsv", "--model", "svm", "--C", "auto", "--folds", "3", "-o", "{dir}/svm-auto.nbm"}, []string{"svm-auto.nbm"}},
	{"complement-select", "", []string{"train", "{td}/train.tsv", "--model", "complement", "--select", "mi:50", "-o", "{dir}/cnb-chi2.nbm"}, []string{"cnb-chi2.nbm"}},
	{"multinomial-stdin", "train.tsv", []string{"train", "-", "-o", "{dir}/mn-stdin.nbm"}, []string{"mn-stdin.nbm"}},
	{"per-class", "", []string{"train", "{td}/train.tsv", "--per-class", "20", "--model", "logreg", "-o", "{dir}/perclass.nbm"}, []string{"perclass.nbm"}},
	{"vocab", "", []string{"vocab", "{td}/train.tsv", "--ngram", "1,2", "--min-df", "2", "-o", "{dir}/vocab.tsv"}, []string{"vocab.tsv"}},
	{"logreg-vocab", "", []string{"train", "{td}/train.tsv", "--model", "logreg", "--vocab", "{dir}/vocab.tsv", "-o", "{dir}/logreg-vocab.nbm"}, []string{"logreg-vocab.nbm"}},
	{"logreg-init", "", []string{"train", "{td}/more.tsv", "--classes", "crypt,med,space", "--model", "logreg", "--init", "{dir}/logreg.nbm", "--epochs", "1", "-o", "{dir}/logreg-init.nbm"}, []string{"logreg-init.nbm"}},
	// Streamed.
	{"stream-multinomial", "", []string{"train", "{td}/train.tsv", "--stream", "-o", "{dir}/s-multinomial.nbm"}, []string{"s-multinomial.nbm"}},
	{"stream-bernoulli", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "bernoulli", "--temperature", "1", "-o", "{dir}/s-bernoulli.nbm"}, []string{"s-bernoulli.nbm"}},
	{"stream-complement", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "complement", "-o", "{dir}/s-complement.nbm"}, []string{"s-complement.nbm"}},
	{"stream-centroid", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "centroid", "-o", "{dir}/s-centroid.nbm"}, []string{"s-centroid.nbm"}},
	{"stream-logreg", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "logreg", "-o", "{dir}/s-logreg.nbm"}, []string{"s-logreg.nbm"}},
	{"stream-logreg-stdin", "train.tsv", []string{"train", "-", "--stream", "--model", "logreg", "-o", "{dir}/s-logreg-stdin.nbm"}, []string{"s-logreg-stdin.nbm"}},
	{"stream-svm", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "svm", "-o", "{dir}/s-svm.nbm"}, []string{"s-svm.nbm"}},
	{"stream-nblr", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "nblr", "--stream-buffer", "100", "-o", "{dir}/s-nblr.nbm"}, []string{"s-nblr.nbm"}},
	{"stream-logreg-vocab", "", []string{"train", "{td}/train.tsv", "--stream", "--model", "logreg", "--vocab", "{dir}/vocab.tsv", "-o", "{dir}/s-logreg-vocab.nbm"}, []string{"s-logreg-vocab.nbm"}},
	{"stream-multinomial-vocab", "", []string{"train", "{td}/train.tsv", "--stream", "--vocab", "{dir}/vocab.tsv", "-o", "{dir}/s-mn-vocab.nbm"}, []string{"s-mn-vocab.nbm"}},
	{"stream-multinomial-hashed", "", []string{"train", "{td}/train.tsv", "--stream", "--hash-bits", "12", "-o", "{dir}/s-mn-hash.nbm"}, []string{"s-mn-hash.nbm"}},
	// From counts.
	{"count", "", []string{"count", "{td}/train.tsv", "--model", "bernoulli", "-o", "{dir}/bern.nbc"}, []string{"bern.nbc"}},
	{"from-counts", "", []string{"train", "--from-counts", "{dir}/bern.nbc", "--model", "bernoulli", "-o", "{dir}/fc-bernoulli.nbm"}, []string{"fc-bernoulli.nbm"}},
	{"count-round1", "", []string{"count", "{td}/train.tsv", "-o", "{dir}/r1.nbc"}, []string{"r1.nbc"}},
	{"count-round2", "", []string{"count", "{td}/train.tsv", "--vocab", "{dir}/r1.nbc", "-o", "{dir}/r2.nbc"}, []string{"r2.nbc"}},
	{"from-counts-multinomial", "", []string{"train", "--from-counts", "{dir}/r2.nbc", "-o", "{dir}/fc-multinomial.nbm"}, []string{"fc-multinomial.nbm"}},
	// Record fields.
	{"categorical", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--model", "categorical", "--categorical-field", "product", "-o", "{dir}/categorical.nbm"}, []string{"categorical.nbm"}},
	{"gaussian", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--model", "gaussian", "--numeric-field", "amount", "-o", "{dir}/gaussian.nbm"}, []string{"gaussian.nbm"}},
	{"mixed", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--model", "multinomial", "--categorical-field", "product", "--numeric-field", "amount", "-o", "{dir}/mixed.nbm"}, []string{"mixed.nbm"}},
	{"logreg-fields", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--model", "logreg", "--categorical-field", "product", "--numeric-field", "amount", "-o", "{dir}/logreg-fields.nbm"}, []string{"logreg-fields.nbm"}},
	{"lda", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--model", "lda", "--numeric-field", "amount", "-o", "{dir}/lda.nbm"}, []string{"lda.nbm"}},
	{"stream-categorical", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--stream", "--model", "categorical", "--categorical-field", "product", "-o", "{dir}/s-categorical.nbm"}, []string{"s-categorical.nbm"}},
	{"stream-mixed", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--stream", "--model", "bernoulli", "--temperature", "1", "--categorical-field", "product", "--numeric-field", "amount", "-o", "{dir}/s-mixed.nbm"}, []string{"s-mixed.nbm"}},
	{"stream-svm-fields", "", []string{"train", "{td}/tickets.csv", "--label-field", "team", "--stream", "--model", "svm", "--categorical-field", "product", "--numeric-field", "amount", "-o", "{dir}/s-svm-fields.nbm"}, []string{"s-svm-fields.nbm"}},
	// Multi-label.
	{"multi-label", "", []string{"train", "{td}/multilabel.txt", "--multi-label", "-o", "{dir}/ml.nbm"}, []string{"ml.nbm"}},
	{"multi-label-tuned", "", []string{"train", "{td}/multilabel.txt", "--multi-label", "--model", "logreg", "--tune-thresholds", "-o", "{dir}/ml-lr.nbm"}, []string{"ml-lr.nbm"}},
	// Semi-supervised EM.
	{"unlabeled", "", []string{"train", "{td}/train.tsv", "--per-class", "10", "--unlabeled", "{td}/unlabeled.tsv", "--unlabeled-weight", "0.5", "-o", "{dir}/em.nbm"}, []string{"em.nbm"}},
	{"unlabeled-auto", "", []string{"train", "{td}/train.tsv", "--per-class", "10", "--unlabeled-rest", "--model", "bernoulli", "--em-iterations", "3", "-o", "{dir}/em-auto.nbm"}, []string{"em-auto.nbm"}},
	// Counts kept, and updates.
	{"keep-counts", "", []string{"train", "{td}/train.tsv", "--weighting", "count", "--keep-counts", "-o", "{dir}/kept.nbm"}, []string{"kept.nbm", "kept.nbc"}},
	{"update", "", []string{"update", "{dir}/kept.nbm", "{td}/more.tsv", "-o", "{dir}/updated.nbm"}, []string{"updated.nbm", "updated.nbc"}},
	{"forget", "", []string{"forget", "{dir}/updated.nbm", "{td}/more.tsv", "-o", "{dir}/forgotten.nbm"}, []string{"forgotten.nbm", "forgotten.nbc"}},
	{"keep-counts-tfidf", "", []string{"train", "{td}/train.tsv", "--keep-counts", "-o", "{dir}/kept-tfidf.nbm"}, []string{"kept-tfidf.nbm", "kept-tfidf.nbc"}},
	{"update-approx", "", []string{"update", "{dir}/kept-tfidf.nbm", "{td}/more.tsv", "-o", "{dir}/updated-tfidf.nbm"}, []string{"updated-tfidf.nbm", "updated-tfidf.nbc"}},
	{"update-linear", "", []string{"update", "{dir}/svm.nbm", "{td}/more.tsv", "--replay", "{td}/train.tsv", "-o", "{dir}/svm-updated.nbm"}, []string{"svm-updated.nbm"}},
}

// TestPipelineGolden trains every run of goldenRuns and compares the
// SHA-256 of each file written with testdata/pipeline.golden: the same
// data and settings must give the same bytes as they did when the file
// was written (run with -update to rewrite it, and review the diff).
func TestPipelineGolden(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	td := filepath.Join("testdata", "pipeline")
	dir := t.TempDir()
	var b strings.Builder
	for _, run := range goldenRuns {
		args := make([]string, len(run.args))
		for i, a := range run.args {
			args[i] = strings.NewReplacer("{td}", td, "{dir}", dir).Replace(a)
		}
		stdin := ""
		if run.stdin != "" {
			data, err := os.ReadFile(filepath.Join(td, run.stdin))
			if err != nil {
				t.Fatal(err)
			}
			stdin = string(data)
		}
		r := nbtext(t, stdin, append(args, "-q")...)
		if r.code != 0 {
			t.Fatalf("%s: nbtext %s: exit %d: %s", run.name, strings.Join(args, " "), r.code, r.err)
		}
		for _, out := range run.outs {
			data, err := os.ReadFile(filepath.Join(dir, out))
			if err != nil {
				t.Fatalf("%s: %v", run.name, err)
			}
			fmt.Fprintf(&b, "%-26s %-20s %x %d\n", run.name, out, sha256.Sum256(data), len(data))
		}
	}
	golden.Check(t, "pipeline.golden", b.String())
}
