package main

import (
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/nbtext/nbtext/internal/cliconfig"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// defaultKind is train's default --model.
const defaultKind = model.Multinomial

// kindFlags are the vectorizer and estimator flags whose defaults depend
// on the model kind (train.FlagDefaults of every kind).
var kindFlags = func() []string {
	all := map[string]string{}
	for _, k := range []model.Kind{model.LogReg, model.Bernoulli, model.Complement, model.Centroid} {
		maps.Copy(all, train.FlagDefaults(k))
	}
	return slices.Sorted(maps.Keys(all))
}()

// helpWithKindDefaults makes the help of cmd show, in each flag's usage,
// the default of the model kind() names (given on the command line before
// --help), or, when it names none, the defaults of fallback (0: "the
// model's"); context says when they apply (eval: "with --cv, ").
func helpWithKindDefaults(cmd *cobra.Command, fallback model.Kind, context string, kind func() (model.Kind, bool)) {
	show := func(k model.Kind) {
		choice, d := "", map[string]string(nil)
		if k != 0 {
			choice, d = k.String(), train.FlagDefaults(k)
		}
		cliconfig.ShowDefaults(cmd.Flags(), kindFlags, d, choice, context)
	}
	show(fallback)
	help := cmd.HelpFunc()
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		k := fallback
		if chosen, ok := kind(); ok {
			k = chosen
		}
		show(k)
		help(c, args)
	})
}

// useKindDefaults gives every flag below root the default its help
// showed, for the man pages (cliconfig.UseShownDefaults).
func useKindDefaults(root *cobra.Command) {
	cliconfig.UseShownDefaults(root.Flags())
	for _, c := range root.Commands() {
		useKindDefaults(c)
	}
}
