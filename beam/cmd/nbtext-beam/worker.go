package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// This file decides the worker binary a runner stages. In Beam 2.77 the
// Go SDK never stages the running binary itself: its
// runnerlib.IsWorkerCompatibleBinary always returns false, and without
// --worker_binary the launcher tries to 'go build' its own source (which
// fails outside the module, and takes a long time inside it).

// flagValue returns the value of the flag name of the command line (Beam
// registers its options there), or "" when there is no such flag.
func flagValue(fs *flag.FlagSet, name string) string {
	if f := fs.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// needsWorkerBinary reports whether the runner, environment and endpoint
// of fs run the pipeline in workers started from a staged binary: every
// runner but Prism in-process (no --endpoint, no --environment_type, or
// LOOPBACK) and the LOOPBACK environment.
func needsWorkerBinary(fs *flag.FlagSet) bool {
	runner := strings.ToLower(flagValue(fs, "runner"))
	env := strings.ToLower(flagValue(fs, "environment_type"))
	if runner == "dataflow" {
		return true
	}
	if env == "loopback" {
		return false
	}
	inProcess := (runner == "" || runner == "prism") && flagValue(fs, "endpoint") == ""
	return !(inProcess && env == "")
}

// errWorkerBinary is the error of a run that needs a worker binary this
// binary cannot be.
var errWorkerBinary = errors.New("this runner starts workers from a linux/amd64 binary")

// stageSelf sets --worker_binary to this binary when the run needs one,
// none was given and this binary can be it (linux/amd64, the platform of
// Beam's Go SDK containers and Dataflow's workers); elsewhere it asks for
// one. It returns the binary set ("" when it set none).
func stageSelf(fs *flag.FlagSet, goos, goarch string) (string, error) {
	if fs.Lookup("worker_binary") == nil || flagValue(fs, "worker_binary") != "" || !needsWorkerBinary(fs) {
		return "", nil
	}
	if goos != "linux" || goarch != "amd64" {
		return "", fmt.Errorf("%w: give one with --worker_binary (cd beam && GOOS=linux GOARCH=amd64 go build -o ../bin/nbtext-beam-linux-amd64 ./cmd/nbtext-beam)", errWorkerBinary)
	}
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("%w: cannot find this binary (%v): give one with --worker_binary", errWorkerBinary, err)
	}
	if err := fs.Set("worker_binary", self); err != nil {
		return "", err
	}
	return self, nil
}

// isWorker reports whether this process was started as a Beam worker
// (--worker=true): beam.Init then runs the worker and never returns.
func isWorker(fs *flag.FlagSet) bool { return flagValue(fs, "worker") == "true" }
