package main

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/cliconfig"
)

// otherEnv are the NBTEXT_* variables that are not flags: read by nbtext
// itself (the config file, the cached corpora) or by its tests and
// scripts, so never reported as unknown.
var otherEnv = []string{
	"NBTEXT_CONFIG", "NBTEXT_DATA_DIR", "NBTEXT_PLOT_DIR", "NBTEXT_PLOT_OUT",
	// The corpora of the tests (the Makefile's CORPUS_VARS).
	"NBTEXT_20NEWS_TARBALL", "NBTEXT_IMDB_TARBALL", "NBTEXT_GOEMOTIONS_DIR",
	"NBTEXT_LDCC_TARBALL", "NBTEXT_TTC_TARBALL", "NBTEXT_LANGDETECT_TARBALL",
}

// workersPerCore bounds --workers (cliconfig.Check).
const workersPerCore = cliconfig.WorkersPerCore

// resolveConfig applies NBTEXT_* variables and the config file to the
// flags of cmd not set on the command line (package cliconfig), then the
// checks every flag shares.
func resolveConfig(cmd *cobra.Command, g *globalOptions) error {
	o := cliconfig.Options{Path: g.config, Command: cmd.Name(), OtherEnv: otherEnv,
		Warn: func(msg string) { note(cmd.ErrOrStderr(), false, "nbtext: warning: %s", msg) }}
	if cmd.Name() != cobra.ShellCompRequestCmd && cmd.Name() != cobra.ShellCompNoDescRequestCmd {
		o.Known = knownSettings(cmd.Root())
	}
	err := cliconfig.Resolve(cmd.Flags(), o)
	if err == nil {
		err = cliconfig.Check(cmd.Flags(), func(msg string) { note(cmd.ErrOrStderr(), false, "nbtext: %s", msg) })
	}
	if ue := (*cliconfig.UsageError)(nil); errors.As(err, &ue) {
		return withCode(exitUsage, err)
	}
	return err
}

// knownSettings collects the flag names of root and every command below it.
func knownSettings(root *cobra.Command) cliconfig.Known {
	known := cliconfig.Known{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		known.Add(c.Name(), c.LocalFlags())
		known.Add(c.Name(), c.InheritedFlags())
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return known
}

// setOnCommandLine reports whether f was typed on the command line (not
// set from NBTEXT_* or the config file).
func setOnCommandLine(f *pflag.Flag) bool { return cliconfig.OnCommandLine(f) }

// withFlagSource prefixes a usage error naming a flag set from NBTEXT_* or
// the config file with where the value came from.
func withFlagSource(cmd *cobra.Command, msg string) string {
	return cliconfig.WithSource(cmd.Flags(), msg)
}

// finite parses a float held by a string flag, refusing NaN and ±Inf.
func finite(name, s string) (float64, error) { return cliconfig.Finite(name, s) }
