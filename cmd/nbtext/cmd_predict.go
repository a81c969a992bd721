package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/predict"
)

// predictOptions are the flags of 'nbtext predict'.
type predictOptions struct {
	global    *globalOptions
	modelPath string
	opt       predict.Options
	costs     string
}

func (o *predictOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.modelPath, "model", "m", "", "model file written by 'nbtext train' (required)")
	fs.StringVar(&o.opt.Input, "input", predict.InputLines, "stdin framing: lines (one document per line), doc (all of stdin), jsonl ({\"id\":..,\"text\":..} per line), nul (NUL-separated)")
	fs.StringVar(&o.opt.Format, "format", predict.FormatText, "output: text, tsv or json (one object per line: id, label, probs)")
	fs.IntVarP(&o.opt.TopK, "top-k", "k", 0, "print the K most probable labels with their probabilities")
	fs.IntVar(&o.opt.Explain, "explain", 0, "add the N words that weigh most in the decision, with their contribution to its log-odds")
	fs.Float64Var(&o.opt.Threshold, "threshold", 0, "print '?' (json: empty label) when the chosen label's probability is below P")
	fs.StringVar(&o.costs, "costs", "", "class loss weights label=λ,...: decide argmax λ_y P(y|x) (default λ = 1, the MAP rule)")
	fs.IntVar(&o.opt.Workers, "workers", 0, "scoring goroutines (0: one per core)")
	fs.IntVar(&o.opt.MaxDocBytes, "max-doc-bytes", predict.DefaultMaxDocBytes, "refuse a single document larger than this")
	fs.BoolVar(&o.opt.Header, "header", false, "tsv: print a header line first")
}

func newPredictCmd(g *globalOptions) *cobra.Command {
	o := &predictOptions{global: g}
	cmd := &cobra.Command{
		Use:   "predict -m MODEL [FILE|DIR|ARCHIVE ...]",
		Short: "Label documents from stdin or files with a trained model",
		Long: `Label documents with a model written by 'nbtext train'.

With no file arguments it reads stdin, one document per line (--input lines),
answering each line as it arrives, in input order. With FILE, DIR or ARCHIVE
arguments each file is one document and its path is its id.

Empty documents are predicted from the prior; bytes that are not UTF-8 are
read as latin-1.`,
		Example: `  echo "the gpu renders textures" | nbtext predict -m news.nbm
  nbtext predict -m news.nbm --top-k 3 --format json < posts.txt
  tail -f feed.log | nbtext predict -m news.nbm --format tsv
  find mail -type f -print0 | xargs -0 nbtext predict -m spam.nbm --format tsv
  nbtext predict -m news.nbm --explain 5 --input doc < post.txt`,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			if o.modelPath == "" {
				return usageErrorf("-m MODEL is required")
			}
			return withCode(exitUsage, o.opt.Validate())
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runPredict(cmd, args, o) },
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runPredict(cmd *cobra.Command, args []string, o *predictOptions) error {
	s := streams{In: cmd.InOrStdin(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
	m, err := model.Load(o.modelPath)
	if err != nil {
		return withCode(exitBadModel, err)
	}
	opt := o.opt
	if opt.Costs, err = model.ParseCosts(o.costs, m.Classes); err != nil {
		return withCode(exitUsage, err)
	}
	p, err := predict.New(m, opt)
	if err != nil {
		return withCode(exitUsage, err)
	}
	w := predict.NewWriter(s.Out)
	if err := p.Header(w); err != nil {
		return err
	}
	var st predict.Stats
	if len(args) == 0 {
		st, err = p.Stream(cmd.Context(), s.In, "stdin", w)
	} else {
		st, err = p.Files(cmd.Context(), args, w, func(msg string) { note(s.Err, false, "nbtext: warning: %s", msg) })
	}
	if err != nil {
		return err
	}
	if len(args) > 0 && st.Docs == 0 {
		return fmt.Errorf("no documents found in %s", strings.Join(args, " "))
	}
	if st.Fallback > 0 {
		note(s.Err, o.global.quiet, "nbtext: %d of %d documents gave the model nothing to go on and were predicted from the prior", st.Fallback, st.Docs)
	}
	return nil
}
