package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagGroupKey is the pflag annotation that names a flag's help section.
const flagGroupKey = "nbtext_help_group"

// flagGroupOrder is the order of the help sections; a section with no flag
// of the command is left out.
var flagGroupOrder = []string{
	"Input",
	"Vectorizer",
	"Model",
	"Records",
	"Multi-label",
	"Search (--auto)",
	"Semi-supervised",
	"Evaluation",
	"Quality gates",
	"Learning curves",
	"Update",
	"Scale and memory",
	"Server",
	"Output",
	"Global",
}

// flagGroups assigns every flag to its help section by name: one table for
// all commands, so that a flag means the same section wherever it
// appears. A "command/flag" key overrides the name for one command where
// the name means something else there (predict --header names the
// columns of its output; train --header reads the corpus's).
// TestEveryFlagHasAGroup fails for a flag that is in no section.
var flagGroups = map[string][]string{
	"Input": {
		"input-format", "split", "classes", "label-field", "text-field",
		"label-prefix", "header", "max-doc-bytes", "remove", "input",
		"id-field", "test", "predict/model", "eval/model", "serve/model",
	},
	"Vectorizer": {
		"analyzer", "case-fold", "char-ngram", "cjk-bigrams", "fields",
		"hash-bits", "follow-profile", "lowercase", "max-df", "max-features", "min-df", "ngram",
		"norm", "select", "stop-words", "strip-accents", "sublinear-tf",
		"subwords", "token-pattern", "unicode-norm", "weighting", "vocab",
	},
	"Model": {
		"model", "alpha", "beta", "C", "penalty", "l1-ratio", "solver",
		"epochs", "batch-size", "interpolation", "prior", "class-weight",
		"temperature", "seed", "folds", "init", "weight-norm", "centroid-offset",
	},
	"Records": {
		"categorical-field", "numeric-field", "field-alpha", "var-smoothing",
		"numeric-density", "bandwidth", "shrinkage", "reg-param",
	},
	"Multi-label": {
		"multi-label", "label-sep", "tune-thresholds", "min-labels",
		"eval/threshold",
	},
	"Search (--auto)": {
		"auto", "budget", "ensemble", "leaderboard", "valid", "train/metric",
		"eval/metric",
	},
	"Semi-supervised": {
		"unlabeled", "unlabeled-classes", "unlabeled-rest", "unlabeled-split",
		"unlabeled-weight", "em-iterations", "em-tol", "per-class",
	},
	"Evaluation": {
		"cv", "confusion", "normalize", "eval/top-k",
	},
	"Quality gates": {
		"min-accuracy", "min-macro-f1", "max-log-loss", "min-precision",
		"min-recall", "baseline", "tolerance",
	},
	"Learning curves": {
		"models", "sizes", "repeats", "vary", "compare/metric",
	},
	"Update": {
		"counts", "replay", "no-history", "update/epochs",
	},
	"Scale and memory": {
		"stream", "no-stream", "stream-buffer", "from-counts", "expect-shards", "keep-counts", "tmp-dir",
		"shard", "workers",
	},
	"Server": {
		"addr", "batch-workers", "idle-timeout", "max-batch", "max-body-bytes",
		"max-concurrent", "max-conns", "max-header-bytes", "queue-wait",
		"read-header-timeout", "read-timeout", "shutdown-timeout", "watch",
		"write-timeout", "serve/max-doc-bytes",
	},
	"Output": {
		"output", "format", "top", "top-k", "threshold", "explain", "all-probs",
		"scores", "digits", "costs", "csv", "plot", "predict/header", "man",
		"no-descriptions",
	},
	"Global": {
		"config", "mem", "quiet", "help", "version",
	},
}

// flagGroupOf maps "name" and "command/name" to a section, built from
// flagGroups.
var flagGroupOf = func() map[string]string {
	m := map[string]string{}
	for g, names := range flagGroups {
		for _, n := range names {
			if prev, ok := m[n]; ok {
				panic("flag " + n + " is in two help sections: " + prev + ", " + g)
			}
			m[n] = g
		}
	}
	return m
}()

// groupOf returns the help section of flag f of command c ("" for none).
func groupOf(c *cobra.Command, f *pflag.Flag) string {
	if g, ok := flagGroupOf[c.Name()+"/"+f.Name]; ok {
		return g
	}
	return flagGroupOf[f.Name]
}

// groupHelp annotates every flag of c and of the commands below it with
// its help section and makes their usage print the flags by section.
func groupHelp(c *cobra.Command) {
	if !c.HasParent() {
		c.InitDefaultVersionFlag()
		c.InitDefaultHelpCmd()
	}
	c.InitDefaultHelpFlag()
	annotate := func(f *pflag.Flag) {
		g := groupOf(c, f)
		if g == "" {
			return
		}
		if f.Annotations == nil {
			f.Annotations = map[string][]string{}
		}
		f.Annotations[flagGroupKey] = []string{g}
	}
	c.LocalFlags().VisitAll(annotate)
	c.InheritedFlags().VisitAll(annotate)
	for _, sub := range c.Commands() {
		groupHelp(sub)
	}
	if !c.HasParent() {
		c.SetUsageTemplate(groupedUsageTemplate)
	}
}

// cobra's template functions are one global map: registered once, before
// any command is built, so that building commands concurrently never
// writes it.
func init() { cobra.AddTemplateFunc("flagSections", flagSections) }

// flagSections returns c's flags (its own and those it inherits) as the
// text of the help's sections, in flagGroupOrder; a flag with no section
// (TestEveryFlagHasAGroup prevents it) is listed under "Other flags".
func flagSections(c *cobra.Command) string {
	sets := map[string]*pflag.FlagSet{}
	add := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := "Other"
		if v := f.Annotations[flagGroupKey]; len(v) == 1 {
			g = v[0]
		}
		if sets[g] == nil {
			sets[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
			sets[g].SortFlags = true
		}
		sets[g].AddFlag(f)
	}
	c.LocalFlags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	var b strings.Builder
	for _, g := range append(flagGroupOrder, "Other") {
		fs := sets[g]
		if fs == nil {
			continue
		}
		title := g + " flags:"
		if g == "Other" {
			title = "Other flags:"
		}
		b.WriteString("\n\n" + title + "\n")
		b.WriteString(strings.TrimRight(fs.FlagUsages(), " \n"))
	}
	return b.String()
}

// groupedUsageTemplate is cobra's default usage template with the flags
// printed by section (flagSections) instead of in two blocks.
const groupedUsageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{flagSections .}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`
