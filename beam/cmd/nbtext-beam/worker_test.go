package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"testing"
)

// beamFlags returns a flag set with Beam's flags that stageSelf reads,
// set from args.
func beamFlags(t *testing.T, args ...string) *flag.FlagSet {
	t.Helper()
	fs := flag.NewFlagSet("beam", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"runner", "environment_type", "endpoint", "worker_binary"} {
		fs.String(name, "", "")
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs
}

func TestStageSelf(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string // the worker binary after stageSelf
	}{
		{nil, ""}, // Prism in-process, loopback
		{[]string{"--runner=prism"}, ""},
		{[]string{"--runner=prism", "--environment_type=LOOPBACK"}, ""},
		{[]string{"--runner=flink", "--endpoint=h:8099", "--environment_type=LOOPBACK"}, ""},
		{[]string{"--runner=dataflow"}, self},
		{[]string{"--runner=dataflow", "--environment_type=LOOPBACK"}, self},
		{[]string{"--runner=flink", "--endpoint=h:8099"}, self},
		{[]string{"--runner=spark", "--endpoint=h:8099", "--environment_type=DOCKER"}, self},
		{[]string{"--runner=universal", "--endpoint=h:8073", "--environment_type=PROCESS"}, self},
		{[]string{"--runner=prism", "--endpoint=h:8073"}, self},
		{[]string{"--runner=prism", "--environment_type=PROCESS"}, self},
		{[]string{"--runner=dataflow", "--worker_binary=w"}, "w"},
	} {
		fs := beamFlags(t, tc.args...)
		if _, err := stageSelf(fs, "linux", "amd64"); err != nil {
			t.Errorf("%v: %v", tc.args, err)
		}
		if got := flagValue(fs, "worker_binary"); got != tc.want {
			t.Errorf("%v: worker binary %q, want %q", tc.args, got, tc.want)
		}
	}
	fs := beamFlags(t, "--runner=dataflow")
	if _, err := stageSelf(fs, "darwin", "arm64"); !errors.Is(err, errWorkerBinary) {
		t.Errorf("darwin/arm64 for dataflow: %v, want errWorkerBinary", err)
	}
	if _, err := stageSelf(beamFlags(t), "darwin", "arm64"); err != nil {
		t.Errorf("darwin/arm64 in-process: %v", err)
	}
}
