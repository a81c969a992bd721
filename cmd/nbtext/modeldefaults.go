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
// flag of fs the default that kind really uses (train.FlagDefaults), or, when
// kind is 0, that the default is the chosen model's. The flags' DefValue
// is set to their zero value, so that pflag does not print a second,
// untrue default of its own. context says when the defaults apply (eval:
// "with --cv").
func showKindDefaults(fs *pflag.FlagSet, kind model.Kind, context string) {
	all := train.FlagDefaults(model.LogReg)
	for _, k := range []model.Kind{model.Bernoulli, model.Complement, model.Centroid} {
		for name, v := range train.FlagDefaults(k) {
			all[name] = v
		}
	}
	var d map[string]string
	if kind != 0 {
		d = train.FlagDefaults(kind)
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
