package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionPlainBuild builds nbtext with a plain 'go build' (no -ldflags;
// -buildvcs=auto, Go's default, which a GOFLAGS setting may have turned
// off) and checks that --version reports the module and whatever VCS
// revision the toolchain recorded ('go version -m'). Before, it printed
// only "nbtext version dev".
func TestVersionPlainBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary; skipped with -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build with")
	}
	bin := filepath.Join(t.TempDir(), "nbtext")
	if out, err := exec.Command(gobin, "build", "-buildvcs=auto", "-o", bin, ".").CombinedOutput(); err != nil {
		if strings.Contains(string(out), "obtaining VCS status") {
			t.Skipf("git cannot read this checkout here (%s): nothing to stamp", strings.TrimSpace(string(out)))
		}
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("--version: %v", err)
	}
	text := string(out)
	if !strings.Contains(text, "module    github.com/nbtext/nbtext ") || !strings.Contains(text, "go        go") {
		t.Errorf("--version of a plain build:\n%s", text)
	}
	info, err := exec.Command(gobin, "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	rev := ""
	for _, line := range strings.Split(string(info), "\n") {
		if _, r, ok := strings.Cut(line, "vcs.revision="); ok {
			rev = strings.TrimSpace(r)
		}
	}
	if rev == "" {
		t.Logf("the toolchain recorded no revision (not a git clone?): only the form is checked")
		if !strings.Contains(text, "revision  unknown") {
			t.Errorf("--version without a recorded revision:\n%s", text)
		}
		return
	}
	if want := "revision  " + rev; !strings.Contains(text, want) {
		t.Errorf("--version lacks %q:\n%s", want, text)
	}
}
