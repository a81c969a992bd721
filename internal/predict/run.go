// One run of 'nbtext predict': the request checked, the documents of
// the arguments (or standard input) answered, and what the run saw
// reported.

package predict

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Check returns an error for a request no model can answer: no model
// file, or options out of range (Options.Validate).
func (r Request) Check(o Options) error {
	if r.Path == "" {
		return fmt.Errorf("-m MODEL is required")
	}
	return o.Validate()
}

// Run answers the documents of args (none: stdin) on w, buffered
// (NewWriter), after the header line Options.Header asks for.
func (p *Predictor) Run(ctx context.Context, args []string, stdin io.Reader, out io.Writer) (Stats, error) {
	w := NewWriter(out)
	if err := p.Header(w); err != nil {
		return Stats{}, err
	}
	if len(args) == 0 {
		return p.Stream(ctx, stdin, "stdin", w)
	}
	return p.Files(ctx, args, stdin, w)
}

// Check returns an error when a run of the model file path on args
// answered less than it was asked (no document at all, documents that
// could not be read, arguments that held none), and tells note what the
// user may want to know (labels ignored, documents predicted from the
// prior) and warn what they must (documents without a known word).
// Either may be nil.
func (s Stats) Check(path string, args []string, note, warn func(msg string)) error {
	if note == nil {
		note = func(string) {}
	}
	if warn == nil {
		warn = func(string) {}
	}
	if len(args) > 0 && s.Docs == 0 {
		return fmt.Errorf("no documents found in %s", strings.Join(args, " "))
	}
	for _, l := range s.Labelled {
		src := l.Source
		if src == "stdin" {
			src = Stdin
		}
		note(fmt.Sprintf("%s holds labels (%s): predict ignored them; 'nbtext eval -m %s %s' measures the model against them", l.Source, l.What, path, src))
	}
	if s.Empty > 0 {
		warn(fmt.Sprintf("%d of %d documents hold no word the model knows: answered from its biases (the prior) alone", s.Empty, s.Docs))
	}
	if s.Fallback > 0 {
		note(fmt.Sprintf("%d of %d documents gave the model nothing to go on and were predicted from the prior", s.Fallback, s.Docs))
	}
	if s.Failed > 0 {
		return fmt.Errorf("%d of %d documents could not be read and were answered with '?' (see the warnings above)", s.Failed, s.Docs)
	}
	if len(s.NoDocs) > 0 {
		return fmt.Errorf("no documents found in %s (the other arguments were answered)", strings.Join(s.NoDocs, " "))
	}
	return nil
}
