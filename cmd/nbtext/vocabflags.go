package main

import (
	"slices"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/pipeline"
)

// addedFlags calls add on fs and returns the names of the flags it
// registered, in fs's order. train uses it to learn which of its flags
// vectorizeOptions owns without a list of names that could drift from
// flags.go.
func addedFlags(fs *pflag.FlagSet, add func(*pflag.FlagSet)) []string {
	before := map[string]bool{}
	fs.VisitAll(func(f *pflag.Flag) { before[f.Name] = true })
	add(fs)
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !before[f.Name] {
			names = append(names, f.Name)
		}
	})
	return names
}

// vocabFixedFlags returns the flags of fs whose setting a vocabulary file
// records (vectorize.Settings), so that --vocab replaces them: vecFlags,
// the flags vectorizeOptions added, and --remove, which the file records
// too (Settings.Remove) though corpusOptions registers it.
func vocabFixedFlags(fs *pflag.FlagSet, vecFlags []string) []string {
	names := slices.Clone(vecFlags)
	if fs.Lookup("remove") != nil && !slices.Contains(names, "remove") {
		names = append(names, "remove")
	}
	return names
}

// checkFixedFlags fails with a usage error naming every flag of names
// that was given on the command line together with the flag with, whose
// file fixes their settings (pipeline.CheckFixedFlags); why says so and
// what to do instead.
func checkFixedFlags(fs *pflag.FlagSet, names []string, with, why string) error {
	return pipeline.CheckFixedFlags(givenOn(fs), names, with, why)
}

// givenOn returns whether a flag of fs was given on the command line (not
// by NBTEXT_* or the config file, see setOnCommandLine).
func givenOn(fs *pflag.FlagSet) func(name string) bool {
	return func(name string) bool {
		f := fs.Lookup(name)
		return f != nil && setOnCommandLine(f)
	}
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// givenOnCommandLine returns, as "--name", the flags of names that were
// given on the command line (not by NBTEXT_* or the config file).
func givenOnCommandLine(fs *pflag.FlagSet, names []string) []string {
	var set []string
	for _, name := range names {
		if f := fs.Lookup(name); f != nil && setOnCommandLine(f) {
			set = append(set, "--"+name)
		}
	}
	return set
}
