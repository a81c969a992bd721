package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigUnknownKeys checks that a typo in the config file is named in
// one warning instead of being ignored silently, while the keys that are
// flags still apply.
func TestConfigUnknownKeys(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	cfg := writeFile(t, dir, "nbtext.yaml", "top: 2\nminn-df: 3\ntrain:\n  alpah: 1\n  alpha: 0.5\nvocab:\n  min-df: 1\n  topp: 4\neval:\nfrobnicate:\n  x: 1\n")
	r := nbtext(t, "", "vocab", tsv, "--config", cfg, "-q")
	check(t, r, 0, "warning: config "+cfg+": unknown keys, ignored: frobnicate.x, minn-df, train.alpah, vocab.topp")
	if n := strings.Count(r.err, "warning"); n != 1 {
		t.Errorf("want one warning, got %d: %q", n, r.err)
	}
	if got := strings.Count(strings.TrimSpace(r.out), "\n"); got != 2 {
		t.Errorf("top: 2 from the config file no longer applies: %d rows", got)
	}
	// A file without typos: no warning (an empty section is allowed).
	good := writeFile(t, dir, "good.yaml", "top: 2\nC: 3\ntrain:\n  alpha: 0.5\n  C: 10\neval:\n")
	if r = nbtext(t, "", "vocab", tsv, "--config", good, "-q"); r.err != "" {
		t.Errorf("clean config: stderr %q", r.err)
	}
}

// TestUnknownEnv checks that an NBTEXT_* variable that names no flag gets
// one warning naming it, and that the variables of flags, of commands'
// flags and those nbtext reads otherwise get none.
func TestUnknownEnv(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	t.Setenv("NBTEXT_MIN_DF", "1")
	t.Setenv("NBTEXT_TRAIN_ALPHA", "0.5") // a flag of another command
	t.Setenv("NBTEXT_IMDB_TARBALL", "/nowhere")
	t.Setenv("NBTEXT_EVAL_MIN_ACCURACY", "0")
	if r := nbtext(t, "", "vocab", tsv, "-q"); r.code != 0 || r.err != "" {
		t.Fatalf("known variables: exit %d, stderr %q", r.code, r.err)
	}
	t.Setenv("NBTEXT_MINDF", "2")
	t.Setenv("NBTEXT_VOCAB_ALPHA", "1") // vocab has no --alpha
	r := nbtext(t, "", "vocab", tsv, "-q")
	check(t, r, 0, "warning: unknown environment variables, ignored: NBTEXT_MINDF, NBTEXT_VOCAB_ALPHA")
	if n := strings.Count(r.err, "\n"); n != 1 {
		t.Errorf("want one line of warning, got %q", r.err)
	}
}

// TestConfigPathErrors checks that --config naming a folder, or a YAML
// file with another extension, gets a clear answer (before: viper's
// 'Unsupported Config Type ""').
func TestConfigPathErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	check(t, nbtext(t, "", "vocab", tsv, "--config", dir), 2, "config "+dir+": is a folder")
	conf := writeFile(t, dir, "nbtext.conf", "top: 1\n")
	r := nbtext(t, "", "vocab", tsv, "--config", conf, "-q")
	if r.code != 0 || strings.Count(strings.TrimSpace(r.out), "\n") != 1 {
		t.Fatalf("YAML in nbtext.conf: exit %d, stderr %q, out %q", r.code, r.err, r.out)
	}
	noExt := writeFile(t, dir, "nbtextrc", "top: [1\n")
	check(t, nbtext(t, "", "vocab", tsv, "--config", noExt), 2, filepath.Base(noExt))
}
