package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// result is what one nbtext invocation printed and returned.
type result struct {
	code     int
	out, err string
}

// nbtext runs the command line in-process with buffer streams.
func nbtext(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, streams{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return result{code, out.String(), errb.String()}
}

// writeFile writes content to name under dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// toyTSV is a small labelled corpus.
const toyTSV = "crypt\tthe key and the cipher and pgp encryption\n" +
	"crypt\tpgp keys encryption security cipher\n" +
	"crypt\tsecret key escrow clipper chip encryption\n" +
	"graphics\tpolygons rendering textures with opengl\n" +
	"graphics\tthe gpu renders polygons and textures\n" +
	"graphics\timage formats jpeg gif rendering\n"

// isolate clears the environment a test run could inherit.
func isolate(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "NBTEXT_") && k != "NBTEXT_20NEWS_TARBALL" {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
}

// check asserts an invocation's exit code, that stderr mentions each of
// want, and that no stack trace reached the user.
func check(t *testing.T, r result, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d; stderr: %s", r.code, code, r.err)
	}
	for _, w := range want {
		if !strings.Contains(r.err, w) {
			t.Errorf("stderr %q does not mention %q", r.err, w)
		}
	}
	if strings.Contains(r.err, "goroutine") || strings.Contains(r.err, "panic") {
		t.Errorf("stack trace on stderr: %s", r.err)
	}
}

// damagedModels saves a good model under dir and, beside it, copies with a
// byte in the middle flipped and with the last 40 bytes cut: the paths of
// the good, corrupt and truncated files.
func damagedModels(t *testing.T, dir string) (good, corrupt, cut string) {
	t.Helper()
	good = savePredictModel(t, dir)
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(b)
	flipped[len(flipped)/2] ^= 0x10
	corrupt = writeFile(t, dir, "corrupt.nbm", string(flipped))
	cut = writeFile(t, dir, "cut.nbm", string(b[:len(b)-40]))
	return good, corrupt, cut
}
