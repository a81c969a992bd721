package cliconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// sourceKey is the annotation Resolve puts on a flag it set from the
// environment or the config file: where the value came from.
const sourceKey = "nbtext-source"

// UsageError is a bad setting: a bad value in the environment or the
// config file, or a config file that cannot be read. The CLI exits with
// its usage code.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usageErrorf(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// OnCommandLine reports whether f was given on the command line, as
// opposed to left at its default or set by Resolve from an NBTEXT_*
// variable or the config file (pflag marks those Changed as well).
func OnCommandLine(f *pflag.Flag) bool {
	return f.Changed && len(f.Annotations[sourceKey]) == 0
}

// Source names where Resolve took f's value from ("NBTEXT_ALPHA",
// "FILE: key"), or "" for the command line or the default.
func Source(f *pflag.Flag) string {
	if s := f.Annotations[sourceKey]; len(s) > 0 {
		return s[0]
	}
	return ""
}

// sourcePrefix is Source followed by ": ", or "".
func sourcePrefix(f *pflag.Flag) string {
	if s := Source(f); s != "" {
		return s + ": "
	}
	return ""
}

func markSource(f *pflag.Flag, source string) {
	if f.Annotations == nil {
		f.Annotations = map[string][]string{}
	}
	f.Annotations[sourceKey] = []string{source}
}

// WithSource prefixes an error message msg that names a flag of fs
// ("--NAME ...") set from an NBTEXT_* variable or the config file with
// where the value came from, so that a bad value of the environment is
// found there: `NBTEXT_ALPHA: --alpha must be a finite number or auto, got "x"`.
func WithSource(fs *pflag.FlagSet, msg string) string {
	var src string
	fs.VisitAll(func(f *pflag.Flag) {
		if s := Source(f); src == "" && s != "" && strings.HasPrefix(msg, "--"+f.Name+" ") {
			src = s
		}
	})
	if src == "" {
		return msg
	}
	return src + ": " + msg
}

// Options say what Resolve reads.
type Options struct {
	// Path is the config file named by --config ("" for none given).
	Path string
	// Command is the name of the command whose flags are resolved.
	Command string
	// Known are every command's flag names (nil: unknown keys and
	// variables are not looked for, as for shell completion requests).
	Known Known
	// OtherEnv are the NBTEXT_* variables that are not flags and never
	// reported as unknown.
	OtherEnv []string
	// Warn gets the one-line warnings about unknown keys and variables.
	Warn func(msg string)
}

// Resolve applies environment variables and the config file to every flag
// of fs that was not set on the command line: flag > NBTEXT_* > config
// file > default. Without Options.Path, $NBTEXT_CONFIG names the file,
// else nbtext/config.yaml in the user config dir is read if present. A
// bad value fails naming its source.
func Resolve(fs *pflag.FlagSet, o Options) error {
	v := viper.New()
	path, explicit := o.Path, o.Path != ""
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
	if o.Known != nil && o.Warn != nil {
		if haveFile {
			if bad := o.Known.unknownKeys(v.AllKeys()); len(bad) > 0 {
				o.Warn(fmt.Sprintf("config %s: unknown keys, ignored: %s (keys are flag names, at the top level or under a command's name)", path, strings.Join(bad, ", ")))
			}
		}
		if bad := o.Known.unknownEnv(os.Environ(), o.OtherEnv); len(bad) > 0 {
			o.Warn(fmt.Sprintf("unknown environment variables, ignored: %s (NBTEXT_<FLAG> or NBTEXT_<COMMAND>_<FLAG>, upper-case with '-' as '_')", strings.Join(bad, ", ")))
		}
	}
	var firstErr error
	fs.VisitAll(func(f *pflag.Flag) {
		if firstErr != nil || f.Changed || f.Name == "config" || f.Name == "help" || f.Name == "version" {
			return
		}
		for _, env := range []string{"NBTEXT_" + envName(o.Command) + "_" + envName(f.Name), "NBTEXT_" + envName(f.Name)} {
			if val, ok := os.LookupEnv(env); ok {
				if err := fs.Set(f.Name, val); err != nil {
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
		for _, key := range []string{o.Command + "." + f.Name, f.Name} {
			if !v.IsSet(key) {
				continue
			}
			val := configString(v.Get(key))
			if err := fs.Set(f.Name, val); err != nil {
				firstErr = usageErrorf("%s: %s: %q: invalid %s for --%s", path, key, val, f.Value.Type(), f.Name)
			} else {
				markSource(f, path+": "+key)
			}
			return
		}
	})
	return firstErr
}

// envName is a flag or command name as an environment variable has it.
func envName(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "-", "_")) }

// configString renders a YAML value as the string a flag would take:
// lists become comma-separated.
func configString(x any) string {
	t, ok := x.([]any)
	if !ok {
		return fmt.Sprint(x)
	}
	parts := make([]string, len(t))
	for i, e := range t {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, ",")
}

// Known are the settings names of every command: flags by the lower-case
// name of the command that has them, and "" for the union, which
// top-level config keys and NBTEXT_<FLAG> may name.
type Known map[string]map[string]bool

// Add records the flags of fs as settings of command.
func (k Known) Add(command string, fs *pflag.FlagSet) {
	name := strings.ToLower(command)
	if k[name] == nil {
		k[name] = map[string]bool{}
	}
	if k[""] == nil {
		k[""] = map[string]bool{}
	}
	fs.VisitAll(func(f *pflag.Flag) {
		n := strings.ToLower(f.Name)
		k[name][n] = true
		k[""][n] = true
	})
}

// unknownKeys returns the keys of a config file (viper's AllKeys:
// lower-case, nested keys joined by '.') that name no flag: a top-level
// key must be a flag of some command, a key under a command's name a flag
// of that command.
func (k Known) unknownKeys(keys []string) []string {
	var bad []string
	for _, key := range keys {
		section, flag, nested := strings.Cut(key, ".")
		switch {
		case !nested && (k[""][key] || (k[key] != nil && key != "")):
			// a flag, or a command's section holding only comments
		case nested && k[section] != nil && section != "" && k[section][flag]:
		default:
			bad = append(bad, key)
		}
	}
	slices.Sort(bad)
	return bad
}

// unknownEnv returns the NBTEXT_* variables of environ that name no flag
// (NBTEXT_<FLAG> of any command, NBTEXT_<COMMAND>_<FLAG> of that command)
// and are not in other.
func (k Known) unknownEnv(environ, other []string) []string {
	valid := map[string]bool{}
	for _, e := range other {
		valid[e] = true
	}
	for cmdName, flags := range k {
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
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "NBTEXT_") && !valid[name] {
			bad = append(bad, name)
		}
	}
	slices.Sort(bad)
	return bad
}
