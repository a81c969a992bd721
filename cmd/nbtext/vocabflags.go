package main

import (
	"slices"
	"strings"

	"github.com/spf13/pflag"
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

// checkVocabConflicts fails with a usage error naming every flag of names
// that was given on the command line together with --vocab: the
// vocabulary file fixes those settings, and silently ignoring them would
// train something other than what was asked for. Values that NBTEXT_*
// variables or the config file gave them are general defaults, not a
// request for this run, and are ignored (see setOnCommandLine).
func checkVocabConflicts(fs *pflag.FlagSet, names []string) error {
	return checkFixedFlags(fs, names, "--vocab", "the vocabulary file fixes the vectorizer settings, so pass such flags to 'nbtext vocab' when building it")
}

// checkFixedFlags is checkVocabConflicts for any flag (with) whose file
// fixes the settings of names; why says so and what to do instead.
func checkFixedFlags(fs *pflag.FlagSet, names []string, with, why string) error {
	set := givenOnCommandLine(fs, names)
	if len(set) == 0 {
		return nil
	}
	return usageErrorf("%s %s not allowed with %s: %s (NBTEXT_* and config-file values of them are ignored with %s)",
		strings.Join(set, ", "), plural(len(set), "is", "are"), with, why, with)
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
