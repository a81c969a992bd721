package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// flagSource is the annotation resolveConfig puts on a flag it set from
// the environment or the config file: where the value came from.
const flagSource = "nbtext-source"

// setOnCommandLine reports whether f was given on the command line, as
// opposed to left at its default or set by resolveConfig from an NBTEXT_*
// variable or the config file (pflag marks those Changed as well).
func setOnCommandLine(f *pflag.Flag) bool {
	return f.Changed && len(f.Annotations[flagSource]) == 0
}

// markSource records on f that resolveConfig set it from source.
func markSource(f *pflag.Flag, source string) {
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[flagSource] = []string{source}
}

// withFlagSource prefixes a usage error msg that names a flag (--NAME)
// set from an NBTEXT_* variable or the config file with where the value
// came from, so that a bad value of the environment is found there:
// `NBTEXT_ALPHA: --alpha must be a finite number or auto, got "x"`.
func withFlagSource(cmd *cobra.Command, msg string) string {
	var src string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		s := f.Annotations[flagSource]
		if src != "" || len(s) == 0 || !strings.HasPrefix(msg, "--"+f.Name+" ") {
			return
		}
		src = s[0]
	})
	if src == "" {
		return msg
	}
	return src + ": " + msg
}

// resolveConfig applies environment variables and the config file to every
// flag of cmd that was not set on the command line: flag > NBTEXT_* >
// config file > default. A bad value fails naming its source.
func resolveConfig(cmd *cobra.Command, g *globalOptions) error {
	v := viper.New()
	path, explicit := g.config, g.config != ""
	if !explicit {
		if p := os.Getenv("NBTEXT_CONFIG"); p != "" {
			path, explicit = p, true
		} else if dir, err := os.UserConfigDir(); err == nil {
			path = filepath.Join(dir, "nbtext", "config.yaml")
		}
	}
	haveFile := false
	if path != "" {
		if st, err := os.Stat(path); err == nil {
			if st.IsDir() {
				return usageErrorf("config %s: is a folder: --config names a YAML file", path)
			}
			v.SetConfigFile(path)
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json", ".toml":
			default:
				v.SetConfigType("yaml") // the documented format, whatever the name
			}
			if err := v.ReadInConfig(); err != nil {
				return usageErrorf("config %s: %v", path, err)
			}
			haveFile = true
		} else if explicit {
			return usageErrorf("config %s: %v", path, errors.Unwrap(err))
		}
	}
	if cmd.Name() != cobra.ShellCompRequestCmd && cmd.Name() != cobra.ShellCompNoDescRequestCmd {
		known := knownSettings(cmd.Root())
		if haveFile {
			if bad := unknownConfigKeys(v.AllKeys(), known); len(bad) > 0 {
				note(cmd.ErrOrStderr(), false, "nbtext: warning: config %s: unknown keys, ignored: %s (keys are flag names, at the top level or under a command's name)", path, strings.Join(bad, ", "))
			}
		}
		if bad := unknownEnv(os.Environ(), known); len(bad) > 0 {
			note(cmd.ErrOrStderr(), false, "nbtext: warning: unknown environment variables, ignored: %s (NBTEXT_<FLAG> or NBTEXT_<COMMAND>_<FLAG>, upper-case with '-' as '_')", strings.Join(bad, ", "))
		}
	}
	name := cmd.Name()
	var firstErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if firstErr != nil || f.Changed || f.Name == "config" || f.Name == "help" || f.Name == "version" {
			return
		}
		envName := strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		for _, env := range []string{"NBTEXT_" + strings.ToUpper(name) + "_" + envName, "NBTEXT_" + envName} {
			if val, ok := os.LookupEnv(env); ok {
				if err := cmd.Flags().Set(f.Name, val); err != nil {
					firstErr = usageErrorf("%s=%q: invalid %s for --%s", env, val, f.Value.Type(), f.Name)
				} else {
					markSource(f, env)
				}
				return
			}
		}
		if !haveFile {
			return
		}
		for _, key := range []string{name + "." + f.Name, f.Name} {
			if !v.IsSet(key) {
				continue
			}
			val := configString(v.Get(key))
			if err := cmd.Flags().Set(f.Name, val); err != nil {
				firstErr = usageErrorf("%s: %s: %q: invalid %s for --%s", path, key, val, f.Value.Type(), f.Name)
			} else {
				markSource(f, path+": "+key)
			}
			return
		}
	})
	return firstErr
}

// configString renders a YAML value as the string a flag would take:
// lists become comma-separated.
func configString(x any) string {
	switch t := x.(type) {
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ",")
	default:
		return fmt.Sprint(t)
	}
}

// otherEnv are the NBTEXT_* variables that are not flags: read by nbtext
// itself (the config file, the cached corpora) or by its tests and
// scripts, so never reported as unknown.
var otherEnv = []string{
	"NBTEXT_CONFIG", "NBTEXT_DATA_DIR", "NBTEXT_PLOT_DIR", "NBTEXT_PLOT_OUT",
	// The corpora of the tests (the Makefile's CORPUS_VARS).
	"NBTEXT_20NEWS_TARBALL", "NBTEXT_IMDB_TARBALL", "NBTEXT_GOEMOTIONS_DIR",
	"NBTEXT_LDCC_TARBALL", "NBTEXT_TTC_TARBALL", "NBTEXT_LANGDETECT_TARBALL",
}

// settingsKnown are the settings names of every command: flags by the
// (lower-case) name of the command that has them, and "" for the union,
// which top-level config keys and NBTEXT_<FLAG> may name.
type settingsKnown map[string]map[string]bool

// knownSettings collects the flag names of root and every command below it.
func knownSettings(root *cobra.Command) settingsKnown {
	known := settingsKnown{"": {}}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		name := strings.ToLower(c.Name())
		if known[name] == nil {
			known[name] = map[string]bool{}
		}
		add := func(f *pflag.Flag) {
			n := strings.ToLower(f.Name)
			known[name][n] = true
			known[""][n] = true
		}
		c.LocalFlags().VisitAll(add)
		c.InheritedFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return known
}

// unknownConfigKeys returns the keys of a config file (viper's AllKeys:
// lower-case, nested keys joined by '.') that name no flag: a top-level
// key must be a flag of some command, a key under a command's name a flag
// of that command.
func unknownConfigKeys(keys []string, known settingsKnown) []string {
	var bad []string
	for _, k := range keys {
		section, flag, nested := strings.Cut(k, ".")
		switch {
		case !nested && (known[""][k] || (known[k] != nil && k != "")):
			// a flag, or a command's section holding only comments
		case nested && known[section] != nil && section != "" && known[section][flag]:
		default:
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	return bad
}

// unknownEnv returns the NBTEXT_* variables of environ that name no flag
// (NBTEXT_<FLAG> of any command, NBTEXT_<COMMAND>_<FLAG> of that command)
// and are not in otherEnv.
func unknownEnv(environ []string, known settingsKnown) []string {
	valid := map[string]bool{}
	for _, e := range otherEnv {
		valid[e] = true
	}
	envName := func(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }
	for cmdName, flags := range known {
		for f := range flags {
			if cmdName == "" {
				valid["NBTEXT_"+envName(f)] = true
			} else {
				valid["NBTEXT_"+envName(cmdName)+"_"+envName(f)] = true
			}
		}
	}
	var bad []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "NBTEXT_") && !valid[k] {
			bad = append(bad, k)
		}
	}
	slices.Sort(bad)
	return bad
}
