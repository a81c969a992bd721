// Package cliconfig owns where a command's settings come from: the
// command line, NBTEXT_* environment variables, a YAML config file, or the
// default, in that order of precedence (flag > NBTEXT_<COMMAND>_<FLAG> >
// NBTEXT_<FLAG> > config file, under the command's name then at the top
// level > default).
//
// It works on pflag flag sets, not on cobra commands: the CLI gives it a
// command's name and flags, and the names of every command's flags
// (Known) so that it can name the config keys and NBTEXT_* variables that
// no flag has. A value it sets is marked with its source (Source), so that
// a bad value is reported where it was written ("NBTEXT_ALPHA: --alpha
// ..."), and OnCommandLine tells a flag typed on the command line from
// one set here. Check applies the rules every flag shares once the values
// are resolved: floats are finite, --workers is bounded.
package cliconfig
