package main

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// defaultKind is train's default --model.
const defaultKind = model.Multinomial

// kindDefaults returns, by flag name, the value each vectorizer and
// estimator flag takes for kind when it is not set: train.Defaults, the
// one table of defaults, rendered as the flag would take it. Flags that
// kind does not use are absent.
func kindDefaults(kind model.Kind) map[string]string {
	s, p := train.Defaults(kind)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fields := s.Fields
	if fields == "" {
		fields = "none"
	}
	d := map[string]string{
		"lowercase":    strconv.FormatBool(s.Lowercase),
		"stop-words":   s.StopWords,
		"ngram":        fmt.Sprintf("%d,%d", s.NGramMin, s.NGramMax),
		"min-df":       strconv.Itoa(s.MinDF),
		"max-df":       f(s.MaxDF),
		"max-features": strconv.Itoa(s.MaxFeatures),
		"select":       s.Select,
		"weighting":    s.Weighting,
		"sublinear-tf": strconv.FormatBool(s.Sublinear),
		"norm":         s.Norm,
		"fields":       fields,
		"prior":        p.Prior,
		"seed":         strconv.FormatInt(p.Seed, 10),
	}
	if kind.IsNB() {
		d["alpha"] = f(p.Alpha)
		if kind == model.Bernoulli {
			d["beta"] = f(p.Beta)
			if p.Beta == p.Alpha {
				d["beta"] = "equal to --alpha, " + f(p.Beta)
			}
		}
		if kind == model.Complement {
			d["weight-norm"] = strconv.FormatBool(!p.NoWeightNorm)
		}
		if train.DefaultCalibrate(kind) {
			d["temperature"] = "fitted by cross-validation"
		} else {
			d["temperature"] = "1 (not calibrated)"
		}
	}
	switch kind {
	case model.Centroid:
		d["centroid-offset"] = p.CentroidOffset
	case model.LogReg:
		d["C"] = f(p.C)
		d["penalty"] = p.Penalty
		d["solver"] = p.Solver
		d["epochs"] = strconv.Itoa(p.Epochs)
		d["batch-size"] = strconv.Itoa(p.BatchSize)
	case model.SVM, model.NBLR:
		d["C"] = f(p.C)
		if kind == model.NBLR {
			d["interpolation"] = f(p.Interpolation)
		}
	}
	return d
}

// ownDefault matches the "(default ...)" a usage string ends with, which
// showKindDefaults replaces.
var ownDefault = regexp.MustCompile(`\s*\(default[^()]*(\([^()]*\)[^()]*)*\)$`)

// usageBase is the annotation that keeps a flag's usage without its
// default, so that showKindDefaults can be applied again.
const usageBase = "nbtext-usage"

// kindDefault is the annotation in which showKindDefaults keeps the
// default of the kind it showed, for the man pages (useKindDefaults).
const kindDefault = "nbtext-default"

// showKindDefaults writes into the help of every vectorizer and estimator
// flag of fs the default that kind really uses (kindDefaults), or, when
// kind is 0, that the default is the chosen model's. The flags' DefValue
// is set to their zero value, so that pflag does not print a second,
// untrue default of its own. context says when the defaults apply (eval:
// "with --cv").
func showKindDefaults(fs *pflag.FlagSet, kind model.Kind, context string) {
	all := kindDefaults(model.LogReg)
	for _, k := range []model.Kind{model.Bernoulli, model.Complement, model.Centroid} {
		for name, v := range kindDefaults(k) {
			all[name] = v
		}
	}
	var d map[string]string
	if kind != 0 {
		d = kindDefaults(kind)
	}
	for name := range all {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if f.Annotations == nil || f.Annotations[usageBase] == nil {
			if f.Annotations == nil {
				f.Annotations = map[string][]string{}
			}
			f.Annotations[usageBase] = []string{ownDefault.ReplaceAllString(f.Usage, "")}
		}
		base := f.Annotations[usageBase][0]
		f.DefValue = zeroValue(f)
		delete(f.Annotations, kindDefault)
		switch v, ok := d[name]; {
		case kind == 0:
			f.Usage = fmt.Sprintf("%s (%sdefault: the model's, see nbtext train --model M --help)", base, context)
		case ok:
			if flagTakes(f, v) {
				f.Annotations[kindDefault] = []string{v}
			}
			if v == "" {
				v = `""`
			}
			f.Usage = fmt.Sprintf("%s (%sdefault for --model %s: %s)", base, context, kind, v)
		default:
			f.Usage = fmt.Sprintf("%s (not used by --model %s)", base, kind)
		}
	}
}

// flagTakes reports whether v is a value of f's type (a default such as
// "fitted by cross-validation" is not: the man page then keeps the flag's
// own default, and the usage says the rest).
func flagTakes(f *pflag.Flag, v string) bool {
	var err error
	switch f.Value.Type() {
	case "bool":
		_, err = strconv.ParseBool(v)
	case "int", "int64":
		_, err = strconv.ParseInt(v, 10, 64)
	case "float64":
		_, err = strconv.ParseFloat(v, 64)
	}
	return err == nil
}

// zeroValue is the DefValue for which pflag prints no default.
func zeroValue(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "bool":
		return "false"
	case "int", "int64", "uint64", "float64", "float32":
		return "0"
	case "stringSlice":
		return "[]"
	}
	return ""
}

// helpWithKindDefaults makes the help of cmd show the defaults of the
// model kind() names (given on the command line before --help), or, when
// it names none, the defaults of fallback (0: "the model's").
func helpWithKindDefaults(cmd *cobra.Command, fallback model.Kind, context string, kind func() (model.Kind, bool)) {
	showKindDefaults(cmd.Flags(), fallback, context)
	help := cmd.HelpFunc()
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		k := fallback
		if chosen, ok := kind(); ok {
			k = chosen
		}
		showKindDefaults(c.Flags(), k, context)
		help(c, args)
	})
}

// useKindDefaults sets the DefValue of every flag below root that
// showKindDefaults annotated to the default it showed, for generated
// documents (the man pages print each flag as --name=DEFAULT), where
// --help prints the default in the flag's usage instead.
func useKindDefaults(root *cobra.Command) {
	root.Flags().VisitAll(func(f *pflag.Flag) {
		if v := f.Annotations[kindDefault]; len(v) == 1 {
			f.DefValue = v[0]
		}
	})
	for _, c := range root.Commands() {
		useKindDefaults(c)
	}
}
