// Command nbtext classifies text from the shell: it builds vocabularies,
// trains Naive Bayes and logistic regression models, predicts, evaluates and
// draws learning curves. Run 'nbtext --help' for the subcommands.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
