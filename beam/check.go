package nbbeam

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// ErrUsage marks the errors of CheckFiles: the run was refused before any
// work, as nbtext refuses a usage error (exit 2).
var ErrUsage = errors.New("usage")

// usageErr is an error of CheckFiles.
type usageErr struct{ error }

func (e usageErr) Unwrap() []error { return []error{e.error, ErrUsage} }

// outputs returns the files a run writes, with their flags, in order: the
// counts (-o), round one's when there are two rounds (--round1-out or its
// default), the model (--model-out).
func (c *Config) outputs() (flags, files []string) {
	add := func(flag, f string) {
		if f != "" {
			flags, files = append(flags, flag), append(files, f)
		}
	}
	add("-o", c.Output)
	if c.Vocab == "" && c.ModelOutput != "" && needsTwoRounds(c) {
		r1 := c.Round1Output
		if r1 == "" {
			r1 = round1Name(c.Output)
		}
		add("--round1-out", r1)
	}
	add("--model-out", c.ModelOutput)
	return flags, files
}

// CheckFiles expands the input patterns, as the pipeline will, and refuses
// (ErrUsage), before any work: a file matched twice (by two patterns, or a
// file named twice; its documents would be counted twice), and an output
// that is the same file as an input, a file inside an input folder, or the
// --vocab counts, that is not a regular file, or that is named for two
// outputs (fsutil.CheckOutput). Remote outputs (gs://, s3://) are only
// compared by name.
func (c *Config) CheckFiles(ctx context.Context) error {
	var inputs []string // local files, to compare outputs with
	matched := map[string]string{}
	for _, p := range c.Inputs {
		files, err := expand(ctx, p)
		if err != nil {
			return usageErr{err}
		}
		for _, f := range files {
			if q, ok := matched[f]; ok {
				return usageErr{fmt.Errorf("%s: matched by both %q and %q: its documents would be counted twice", f, q, p)}
			}
			matched[f] = p
			if isLocal(f) {
				inputs = append(inputs, f)
			}
		}
	}
	if err := fsutil.CheckDistinct(inputs...); err != nil {
		return usageErr{err}
	}
	if c.Vocab != "" && isLocal(c.Vocab) {
		inputs = append(inputs, c.Vocab)
	}
	flags, outs := c.outputs()
	for i, out := range outs {
		for j := range i {
			if out == outs[j] || (isLocal(out) && isLocal(outs[j]) && fsutil.SamePath(out, outs[j])) {
				return usageErr{fmt.Errorf("%s %s: the same file as %s %s", flags[i], out, flags[j], outs[j])}
			}
		}
		if _, ok := matched[out]; ok || out == c.Vocab {
			return usageErr{fmt.Errorf("%s %s: %w: it is an input", flags[i], out, fsutil.ErrInput)}
		}
		if isLocal(out) {
			if err := fsutil.CheckOutput(out, inputs...); err != nil {
				return usageErr{fmt.Errorf("%s %w", flags[i], err)}
			}
		}
	}
	return nil
}

// expand returns the files pattern matches, in byte order; a pattern that
// matches nothing is an error, as a missing file is for 'nbtext count'.
func expand(ctx context.Context, pattern string) ([]string, error) {
	fs, err := filesystem.New(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pattern, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, pattern)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pattern, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no file matches", pattern)
	}
	slices.Sort(files)
	return files, nil
}
