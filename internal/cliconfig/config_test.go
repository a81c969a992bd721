package cliconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func flags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	fs.Float64("alpha", 1, "")
	fs.Int("min-df", 1, "")
	fs.StringSlice("ngram", nil, "")
	fs.Int("workers", 0, "")
	return fs
}

func TestResolvePrecedence(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("min-df: 5\ntrain:\n  alpha: 0.5\n  ngram: [1, 2]\nbogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NBTEXT_TRAIN_ALPHA", "0.25")
	t.Setenv("NBTEXT_NOSUCH", "1")
	fs := flags()
	if err := fs.Parse([]string{"--workers", "1"}); err != nil {
		t.Fatal(err)
	}
	known := Known{}
	known.Add("train", fs)
	var warnings []string
	err := Resolve(fs, Options{Path: cfg, Command: "train", Known: known, Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"alpha": "0.25", "min-df": "5", "ngram": "[1,2]", "workers": "1"} {
		if got := fs.Lookup(name).Value.String(); got != want {
			t.Errorf("--%s = %s, want %s", name, got, want)
		}
	}
	if got := Source(fs.Lookup("alpha")); got != "NBTEXT_TRAIN_ALPHA" {
		t.Errorf("alpha's source %q", got)
	}
	if got := Source(fs.Lookup("min-df")); got != cfg+": min-df" {
		t.Errorf("min-df's source %q", got)
	}
	if !OnCommandLine(fs.Lookup("workers")) || OnCommandLine(fs.Lookup("alpha")) {
		t.Error("OnCommandLine confuses the command line with the environment")
	}
	all := strings.Join(warnings, "\n")
	if !strings.Contains(all, "unknown keys, ignored: bogus") || !strings.Contains(all, "NBTEXT_NOSUCH") {
		t.Errorf("warnings %q", all)
	}
	if got := WithSource(fs, "--alpha must be small"); got != "NBTEXT_TRAIN_ALPHA: --alpha must be small" {
		t.Errorf("WithSource: %q", got)
	}
}

func TestResolveBadValueNamesItsSource(t *testing.T) {
	t.Setenv("NBTEXT_MIN_DF", "x")
	t.Setenv("NBTEXT_CONFIG", filepath.Join(t.TempDir(), "none.yaml"))
	err := Resolve(flags(), Options{Command: "train"})
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("want a UsageError naming the config file, got %v", err)
	}
	os.Unsetenv("NBTEXT_CONFIG")
	err = Resolve(flags(), Options{Path: "", Command: "train"})
	if err == nil || !strings.Contains(err.Error(), `NBTEXT_MIN_DF="x"`) {
		t.Fatalf("got %v", err)
	}
}

func TestCheck(t *testing.T) {
	fs := flags()
	if err := fs.Parse([]string{"--alpha", "NaN"}); err != nil {
		t.Fatal(err)
	}
	if err := Check(fs, nil); err == nil || !strings.Contains(err.Error(), "--alpha must be a finite number") {
		t.Fatalf("NaN: %v", err)
	}
	fs = flags()
	if err := fs.Parse([]string{"--workers", "100000"}); err != nil {
		t.Fatal(err)
	}
	var warned string
	if err := Check(fs, func(m string) { warned = m }); err != nil {
		t.Fatal(err)
	}
	if got := fs.Lookup("workers").Value.String(); got != strings.TrimSpace(strings.Fields(warned)[len(strings.Fields(warned))-3]) {
		t.Errorf("workers %s after %q", got, warned)
	}
	if _, err := Finite("x", "inf"); err == nil {
		t.Error("Finite accepted inf")
	}
}
