package train

import (
	"os"
	"sync"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
)

// tarballEnv names the environment variable that points the integration
// tests and benchmarks at the 20 Newsgroups bydate archive.
const tarballEnv = "NBTEXT_20NEWS_TARBALL"

// newsData is the real corpus, read once per test binary.
type newsData struct {
	train, test *corpus.Corpus
	err         error
}

var (
	newsOnce sync.Once
	news     newsData
)

// loadNews returns the train and test splits of the archive named by
// NBTEXT_20NEWS_TARBALL (headers kept), or skips tb when it is not set.
func loadNews(tb testing.TB) (train, test *corpus.Corpus) {
	tb.Helper()
	path := os.Getenv(tarballEnv)
	if path == "" {
		tb.Skipf("%s not set: skipping the test on the real 20 Newsgroups corpus", tarballEnv)
	}
	newsOnce.Do(func() {
		news.train, news.err = corpus.Read(path, corpus.Options{Split: "train"})
		if news.err == nil {
			news.test, news.err = corpus.Read(path, corpus.Options{Split: "test"})
		}
	})
	if news.err != nil {
		tb.Fatalf("reading %s: %v", path, news.err)
	}
	return news.train, news.test
}
