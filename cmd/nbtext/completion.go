package main

import (
	"github.com/spf13/cobra"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/predict"
)

// modelKinds lists the estimators, in the order of their numbers.
func modelKinds() []string {
	var kinds []string
	for k := model.Kind(1); k.Valid(); k++ {
		kinds = append(kinds, k.String())
	}
	return kinds
}

// modelFiles completes a model file argument: *.nbm files and folders.
func modelFiles(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"nbm"}, cobra.ShellCompDirectiveFilterFileExt
}

// values completes a flag from a fixed list of words.
func values(words ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// registerCompletions tells the shell completion scripts ('nbtext
// completion bash|zsh|fish|powershell') the values each flag takes: model
// kinds, formats, framings, and *.nbm files for a model file.
func registerCompletions(root *cobra.Command) {
	kinds := values(modelKinds()...)
	byCommand := map[string]map[string]cobra.CompletionFunc{
		"vocab": {},
		"train": {"model": kinds},
		"predict": {
			"model":  modelFiles,
			"format": values(predict.FormatText, predict.FormatTSV, predict.FormatJSON),
			"input":  values(predict.Inputs...),
		},
		"eval": {
			// -m is a model file, or with --cv an estimator.
			"model": func(c *cobra.Command, args []string, s string) ([]string, cobra.ShellCompDirective) {
				if c.Flags().Changed("cv") {
					return kinds(c, args, s)
				}
				return modelFiles(c, args, s)
			},
			"format": values(evalFormats...),
		},
		"info": {"format": values("table", "json")},
		"compare": {
			"models": kinds,
			"metric": values(string(eval.MetricError), string(eval.MetricErrors), string(eval.MetricAccuracy), string(eval.MetricMacroF1)),
			"vary":   values(string(eval.VarySize), string(eval.VaryVocab)),
		},
	}
	shared := map[string]cobra.CompletionFunc{
		"input-format": values(inputFormats...),
		"split":        values("train", "test"),
		"stop-words":   values("english", ""),
		"weighting":    values("binary", "count", "tfidf"),
		"norm":         values("l2", "none"),
		"remove":       values("headers", "footers", "quotes", "headers,footers,quotes"),
		"penalty":      values("l2", "l1"),
		"solver":       values("sgd", "lbfgs"),
	}
	for _, c := range root.Commands() {
		funcs, ok := byCommand[c.Name()]
		if !ok {
			continue
		}
		for name, fn := range shared {
			if _, own := funcs[name]; !own {
				funcs[name] = fn
			}
		}
		for name, fn := range funcs {
			if c.Flags().Lookup(name) != nil {
				// Only fails for a missing flag or a second registration.
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
	}
}
