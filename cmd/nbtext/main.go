// Command nbtext classifies text from the shell: it builds vocabularies,
// trains Naive Bayes and logistic regression models, predicts, evaluates and
// draws learning curves. Run 'nbtext --help' for the subcommands.
package main

import (
	"context"
	"os"

	"github.com/nbtext/nbtext/internal/fsutil"
)

func main() {
	// SIGINT, SIGTERM and SIGHUP remove the temporary files of the writes
	// in progress before the process dies of the signal.
	stop := fsutil.CleanupOnSignal()
	code := run(context.Background(), os.Args[1:], streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
