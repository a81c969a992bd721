package main

import (
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
	fs        *pflag.FlagSet
	// categorical and numeric name the record fields, as in train; the
	// model knows them, so they only check that the names agree.
	categorical, numeric []string
}

func (o *predictOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.modelPath, "model", "m", "", "model file written by 'nbtext train' (required)")
	o.fs = fs
	fs.StringVar(&o.opt.Input, "input", predict.InputAuto, "framing of stdin and of FILE arguments: auto (a FILE by its name: .csv, .tsv, .jsonl; fastText when its first line starts with the label prefix; else, and stdin, lines), lines (one document per line), doc (the whole file), jsonl ({\"id\":..,\"text\":..} per line), nul (NUL-separated), csv (a header row first), tsv (a header row naming the text column, or label<TAB>text), fasttext (labels dropped)")
	fs.StringSliceVar(&o.opt.Fields.Text, "text-field", []string{"text"}, "csv, tsv with a header, jsonl: the text column(s) or key(s), comma-separated; several are joined with a newline (default: the model's, else text)")
	fs.StringVar(&o.opt.Fields.ID, "id-field", "id", "csv, tsv with a header, jsonl: the column or key whose value is the document's id (absent: the line number)")
	fs.StringVar(&o.opt.Fields.Label, "label-field", "label", "csv, tsv with a header, jsonl: the label column or key of a labelled file, never read as text (default: the model's, else label)")
	fs.StringVar(&o.opt.Fields.LabelPrefix, "label-prefix", "__label__", "fasttext: the prefix of the labels, dropped from the text (default: the model's)")
	fs.StringSliceVar(&o.categorical, "categorical-field", nil, "a model with record fields: its categorical fields (the model knows them; given, they must agree)")
	fs.StringSliceVar(&o.numeric, "numeric-field", nil, "a model with record fields: its numeric fields (the model knows them; given, they must agree)")
	fs.StringVar(&o.opt.Format, "format", predict.FormatText, "output: text, tsv or json (one object per line: id, label, probs)")
	fs.IntVarP(&o.opt.TopK, "top-k", "k", 0, "print the K most probable labels with their probabilities")
	fs.IntVar(&o.opt.Explain, "explain", 0, "add the N words that weigh most in the decision, with their contribution to its log-odds")
	fs.Float64Var(&o.opt.Threshold, "threshold", 0, "print '?' (json: empty label) when the chosen label's probability is below P; with --top-k, drop the labels below P; multi-label models: print the labels of probability ≥ P, at most --top-k of them as fastText does (default: the model's thresholds: tuned, or 0.2 for every label; 0.5 for files that store none; with --top-k alone, the top K)")
	fs.StringVar(&o.costs, "costs", "", "class loss weights label=λ,...: decide argmax λ_y P(y|x) (default λ = 1, the MAP rule)")
	fs.IntVar(&o.opt.Digits, "digits", 0, "decimals of probabilities, scores and weights, 1 to 17 (default: 4 in text and tsv; json: as many as read back exactly)")
	fs.BoolVar(&o.opt.Scores, "scores", false, "json: add each class's decision value (NB: log joint probability; logreg: logit; svm: margin)")
	fs.IntVar(&o.opt.Workers, "workers", 0, "scoring goroutines (0: one per core)")
	fs.IntVar(&o.opt.MaxDocBytes, "max-doc-bytes", predict.DefaultMaxDocBytes, "answer '?' for a document (line, file, archive member) larger than this, without reading it whole")
	fs.BoolVar(&o.opt.Header, "header", false, "tsv: print a header line first")
	fs.IntVar(&o.opt.MinLabels, "min-labels", 0, "multi-label models: give every document at least this many labels (the most probable), whatever the thresholds")
	fs.BoolVar(&o.opt.AllProbs, "all-probs", false, "multi-label models, --format json: print every label's probability, not only the kept labels'")
}

func newPredictCmd(g *globalOptions) *cobra.Command {
	o := &predictOptions{global: g}
	cmd := &cobra.Command{
		Use:     "predict -m MODEL [FILE|DIR|ARCHIVE ...]",
		Short:   "Label documents from stdin or files with a trained model",
		Long:    helpText("predict"),
		Example: exampleText("predict"),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			return withCode(exitUsage, predict.Request{Path: o.modelPath}.Check(o.opt))
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
	opt, err := o.opt.ForModel(m, predict.Request{Path: o.modelPath, Args: args, Given: o.fs.Changed,
		Categorical: o.categorical, Numeric: o.numeric, Costs: o.costs, LabelThreshold: defaultLabelThreshold})
	if err != nil {
		return withCode(exitUsage, err)
	}
	opt.Warn = func(msg string) { note(s.Err, false, "nbtext: warning: %s", msg) }
	p, err := predict.New(m, opt)
	if err != nil {
		return withCode(exitUsage, err)
	}
	st, err := p.Run(cmd.Context(), args, s.In, s.Out)
	if err != nil {
		return err
	}
	return st.Check(o.modelPath, args, func(msg string) { note(s.Err, o.global.quiet, "nbtext: %s", msg) }, opt.Warn)
}
