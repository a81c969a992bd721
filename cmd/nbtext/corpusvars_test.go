package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCorpusVarsKnown checks that every corpus variable the Makefile
// exports for the tests (CORPUS_VARS) is one nbtext knows, so that a
// command run beside the tests (make demo, make bench-serve) does not warn
// that it is an unknown setting.
func TestCorpusVarsKnown(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var vars []string
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "CORPUS_VARS :="); ok {
			vars = strings.Fields(rest)
		}
	}
	if len(vars) == 0 {
		t.Fatal("no CORPUS_VARS line in the Makefile")
	}
	for _, v := range vars {
		if !slices.Contains(otherEnv, v) {
			t.Errorf("%s is in the Makefile's CORPUS_VARS but not in otherEnv: nbtext warns that it is unknown", v)
		}
	}
}
