package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nbtext/nbtext/internal/buildinfo"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes, listed in the root help (help/nbtext.txt) and the README.
const (
	exitOK       = 0 // success
	exitError    = 1 // any other failure: bad input, I/O
	exitUsage    = 2 // bad flags or arguments
	exitBadModel = 3 // a model file that is missing, not a model, truncated, corrupt or too new
	exitGate     = 4 // eval: a quality gate (--min-accuracy, --max-log-loss, --baseline, ...) was not met
)

// streams are the command's standard streams, replaced by buffers in tests.
type streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// codedError carries an exit code through cobra's error return.
type codedError struct {
	code int
	err  error
}

func (e *codedError) Error() string { return e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error {
	return &codedError{exitUsage, fmt.Errorf(format, a...)}
}

func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &codedError{code, err}
}

// globalOptions are the root's persistent flags.
type globalOptions struct {
	config string
	quiet  bool
	mem    string
}

func (o *globalOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.config, "config", "", "config file (default: $NBTEXT_CONFIG, else nbtext/config.yaml in the user config dir, e.g. ~/.config, if present)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "no progress bars or summaries (on stderr, and train's summary on stdout); warnings stay")
	fs.StringVar(&o.mem, "mem", "", "memory budget, e.g. 800M or 2G: the Go runtime's soft limit, and what train weighs the corpus against to stream it (default: $GOMEMLIMIT, else the cgroup's limit (90% as soft limit), else physical memory and ulimit -v)")
}

func newRootCmd(s streams) *cobra.Command {
	g := &globalOptions{}
	root := &cobra.Command{
		Use:           "nbtext",
		Short:         "Fast text classification from the shell: naive Bayes, linear models, centroid",
		Long:          helpText("nbtext"),
		Version:       buildinfo.Text(version, buildinfo.Read()),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if err := resolveConfig(cmd, g); err != nil {
				return err
			}
			if err := membudget.Apply(g.mem); err != nil {
				return withCode(exitUsage, err)
			}
			return nil
		},
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	// Flag parsing errors (unknown flag, bad value, missing value) come
	// typed through this hook; subcommands inherit it from the root.
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &codedError{exitUsage, err}
	})
	g.AddFlags(root.PersistentFlags())
	root.AddCommand(
		newVocabCmd(g),
		newTrainCmd(g),
		newCountCmd(g),
		newMergeCmd(g),
		newUpdateCmd(g), newForgetCmd(g),
		newPredictCmd(g),
		newEvalCmd(g),
		newCompareCmd(g),
		newGenerateCmd(),
		newInfoCmd(g),
		newServeCmd(g),
	)
	// ExecuteC adds cobra's completion command; add it now so that its
	// argument validators are wrapped as well (ExecuteC then keeps it).
	root.InitDefaultCompletionCmd()
	registerCompletions(root)
	typeArgErrors(root)
	groupHelp(root)
	return root
}

// typeArgErrors wraps the Args validator of c and of every command below
// it so that a wrong argument count (cobra.MaximumNArgs and the like) is a
// usage error by type rather than by its message. A nil Args is left nil:
// cobra then applies its legacy check, which reports an unknown
// subcommand (see isCobraUsageError).
func typeArgErrors(c *cobra.Command) {
	if args := c.Args; args != nil {
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := args(cmd, a); err != nil {
				return &codedError{exitUsage, err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		typeArgErrors(sub)
	}
}

// run executes the command line and returns the process exit code. Errors
// are printed as one line on stderr, never as a stack trace.
func run(ctx context.Context, args []string, s streams) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.Err, "nbtext: internal error: %v\nplease report this with the command line that caused it\n", r)
			code = exitError
		}
	}()
	out := &checkedWriter{w: s.Out}
	s.Out = out
	root := newRootCmd(s)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil && out.err != nil {
		// Output that did not reach its destination (a full disk,
		// /dev/full) is a failure, also where a command printed without
		// checking each write.
		err = fmt.Errorf("writing standard output: %w", out.err)
	}
	if err == nil {
		return exitOK
	}
	code = exitError
	var ce *codedError
	var ue *pipeline.UsageError
	if errors.As(err, &ce) {
		code = ce.code
	} else if errors.As(err, &ue) || isCobraUsageError(err) {
		code = exitUsage
	}
	msg := err.Error()
	if code == exitUsage && cmd != nil {
		msg = withFlagSource(cmd, msg)
	}
	fmt.Fprintf(s.Err, "nbtext: %s\n", msg)
	if code == exitUsage && cmd != nil {
		fmt.Fprintf(s.Err, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

// checkedWriter remembers the first error of the writer it wraps and
// refuses every write after it, so that run can fail when standard output
// could not be written.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// isCobraUsageError recognises, by their message, the usage errors cobra
// returns as plain errors and gives no hook to type: an unknown subcommand
// (Command.Find, before any of the command's hooks run) and the checks of
// MarkFlagRequired and flag groups (not used today). Flag parsing errors
// and wrong argument counts do not need it: SetFlagErrorFunc and
// typeArgErrors make them codedErrors. The match is only a fallback, for
// messages a cobra upgrade may reword.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "required flag(s)", "if any flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
