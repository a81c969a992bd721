package cliconfig

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/spf13/pflag"
)

// ownDefault matches the "(default ...)" a usage string ends with, which
// ShowDefaults replaces.
var ownDefault = regexp.MustCompile(`\s*\(default[^()]*(\([^()]*\)[^()]*)*\)$`)

const (
	// usageBase is the annotation that keeps a flag's usage without its
	// default, so that ShowDefaults can be applied again.
	usageBase = "nbtext-usage"
	// shownDefault keeps the default ShowDefaults showed, for generated
	// documents (UseShownDefaults).
	shownDefault = "nbtext-default"
)

// ShowDefaults writes into the usage of every flag of fs named in names
// the default that applies when the flags' defaults depend on a choice
// (nbtext's model kind): defaults[name] for the choice named choice, "not
// used by --model CHOICE" for a flag it lacks, or, when choice is "",
// that the default is the model's. The flags' DefValue is set to their
// zero value, so that pflag does not print a second, untrue default of
// its own. context says when the defaults apply (e.g. "with --cv, ").
func ShowDefaults(fs *pflag.FlagSet, names []string, defaults map[string]string, choice, context string) {
	for _, name := range names {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if f.Annotations == nil {
			f.Annotations = map[string][]string{}
		}
		if f.Annotations[usageBase] == nil {
			f.Annotations[usageBase] = []string{ownDefault.ReplaceAllString(f.Usage, "")}
		}
		base := f.Annotations[usageBase][0]
		f.DefValue = zeroValue(f)
		delete(f.Annotations, shownDefault)
		switch v, ok := defaults[name]; {
		case choice == "":
			f.Usage = fmt.Sprintf("%s (%sdefault: the model's, see nbtext train --model M --help)", base, context)
		case ok:
			if takes(f, v) {
				f.Annotations[shownDefault] = []string{v}
			}
			if v == "" {
				v = `""`
			}
			f.Usage = fmt.Sprintf("%s (%sdefault for --model %s: %s)", base, context, choice, v)
		default:
			f.Usage = fmt.Sprintf("%s (not used by --model %s)", base, choice)
		}
	}
}

// UseShownDefaults sets the DefValue of every flag of fs that
// ShowDefaults annotated to the default it showed, for generated
// documents (man pages print each flag as --name=DEFAULT), where --help
// prints the default in the flag's usage instead.
func UseShownDefaults(fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		if v := f.Annotations[shownDefault]; len(v) == 1 {
			f.DefValue = v[0]
		}
	})
}

// takes reports whether v is a value of f's type (a default such as
// "fitted by cross-validation" is not: the man page then keeps the flag's
// own default, and the usage says the rest).
func takes(f *pflag.Flag, v string) bool {
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
