package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
)

// infoMasks replace what depends on the build and the temporary folder
// (the file's name, bytes and checksum, the writer's version and command
// line) after the test has checked them against the file itself.
var infoMasks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(?m)^(file\s+|  "file": ").*?("?,?)$`), "${1}MODEL${2}"},
	{regexp.MustCompile(`(?m)^(size\s+|  "size": )\d+`), "${1}SIZE"},
	{regexp.MustCompile(`(?m)^(sha256\s+|  "sha256": ")[0-9a-f]{64}`), "${1}SHA256"},
	{regexp.MustCompile(`(?m)^(written by\s+nbtext |  "nbtext_version": ")[^"\n]*`), "${1}VERSION"},
	{regexp.MustCompile(`(?m)^(created by\s+.*|  "created_by": .*)\n`), ""},
}

// TestInfoGolden trains a small model with every setting given, and
// checks 'nbtext info' against golden files, as a table and as JSON: the
// size and SHA-256 it prints are the file's, the JSON lists the classes in
// id order.
func TestInfoGolden(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tsv := writeFile(t, dir, "c.tsv", toyTSV)
	m := filepath.Join(dir, "toy.nbm")
	r := nbtext(t, "", "train", tsv, "-o", m, "-q", "--model", "multinomial", "--alpha", "1", "--prior", "learned",
		"--weighting", "count", "--norm", "none", "--stop-words", "english", "--min-df", "1", "--max-df", "1",
		"--ngram", "1,1", "--fields", "none", "--sublinear-tf=false", "--temperature", "1", "--seed", "1")
	if r.code != 0 {
		t.Fatalf("train: exit %d, stderr %s", r.code, r.err)
	}
	b, err := os.ReadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	for _, format := range []string{"table", "json"} {
		r := nbtext(t, "", "info", m, "--top", "3", "--format", format)
		if r.code != 0 {
			t.Fatalf("%s: exit %d, stderr %s", format, r.code, r.err)
		}
		for _, want := range []string{m, strconv.Itoa(len(b)), hex.EncodeToString(sum[:])} {
			if !strings.Contains(r.out, want) {
				t.Errorf("%s: output does not give %s:\n%s", format, want, r.out)
			}
		}
		if format == "json" {
			var obj struct{ Classes []string }
			if err := json.Unmarshal([]byte(r.out), &obj); err != nil || strings.Join(obj.Classes, ",") != "crypt,graphics" {
				t.Errorf("json classes %q, %v", obj.Classes, err)
			}
		}
		out := r.out
		for _, mk := range infoMasks {
			out = mk.re.ReplaceAllString(out, mk.with)
		}
		golden.Check(t, "info-"+format+".golden", out)
	}
}

// TestInfoErrors checks the failures of 'nbtext info'.
func TestInfoErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	good, corrupt, _ := damagedModels(t, dir)
	for _, tt := range []struct {
		name string
		args []string
		code int
		err  []string
	}{
		{"no model", []string{"info"}, 2, []string{"accepts 1 arg"}},
		{"bad format", []string{"info", good, "--format", "xml"}, 2, []string{"--format must be table or json"}},
		{"bad top", []string{"info", good, "--top", "-1"}, 2, []string{"--top must be ≥ 0"}},
		{"corrupt", []string{"info", corrupt}, 3, []string{corrupt, "corrupt"}},
		{"missing", []string{"info", filepath.Join(dir, "nope.nbm")}, 3, []string{"nope.nbm", "no such file"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			check(t, nbtext(t, "", tt.args...), tt.code, tt.err...)
		})
	}
}
