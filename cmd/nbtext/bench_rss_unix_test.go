//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rssArgsEnv carries the command line of TestRunChild, one argument a line.
const rssArgsEnv = "NBTEXT_BENCH_CHILD_ARGS"

// TestRunChild runs nbtext with the arguments in NBTEXT_BENCH_CHILD_ARGS
// and exits with its code: the child process of the peak-memory
// benchmarks, whose peak RSS is the command's alone. Without the variable
// it does nothing.
func TestRunChild(t *testing.T) {
	args := os.Getenv(rssArgsEnv)
	if args == "" {
		t.Skip(rssArgsEnv + " is not set: this is the child process of the peak-memory benchmarks")
	}
	os.Exit(run(context.Background(), strings.Split(args, "\n"), streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}

// benchPeakRSS runs one command line b.N times, each in a child process
// (this test binary, see TestRunChild), and reports the largest peak RSS
// of the children in MiB (getrusage's ru_maxrss; the test binary adds a few
// MB of code to nbtext's), their median wall seconds and CPU seconds.
func benchPeakRSS(b *testing.B, args ...string) {
	b.Helper()
	var peak int64
	var walls, cpus []float64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunChild$")
		cmd.Env = append(os.Environ(), rssArgsEnv+"="+strings.Join(args, "\n"))
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		walls = append(walls, time.Since(start).Seconds())
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			b.Skip("no rusage on this system")
		}
		peak = max(peak, int64(ru.Maxrss)) // KiB on Linux
		cpus = append(cpus, float64(ru.Utime.Sec+ru.Stime.Sec)+float64(ru.Utime.Usec+ru.Stime.Usec)/1e6)
	}
	b.ReportMetric(float64(peak)/1024, "peak-MiB")
	b.ReportMetric(median(walls), "s/run")
	b.ReportMetric(median(cpus), "cpu-s/run")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkTrainBigramsPeak: train with word bigrams (--ngram 1,2
// --min-df 2) on the 20 Newsgroups train split, in its own process, for
// each model kind whose bigram fit is measured (issue 10: at most 300 MB
// peak RSS and 1.5 s for the default model).
func BenchmarkTrainBigramsPeak(b *testing.B) {
	tb := tarball(b)
	for _, kind := range []string{"multinomial", "logreg", "svm", "nblr"} {
		b.Run(kind, func(b *testing.B) {
			benchPeakRSS(b, "train", tb, "--split", "train", "--ngram", "1,2", "--min-df", "2", "--model", kind, "-o", filepath.Join(b.TempDir(), "m.nbm"))
		})
	}
}
