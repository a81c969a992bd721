package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The update target of issue 26: update of the test split into a
// count-weighted multinomial model of the train split is faster than
// retraining on both splits (and gives the same bytes: TestUpdate20News).
// Both read unpacked folders.

var updateFlags = []string{"--model", "multinomial", "--weighting", "count", "--norm", "none"}

// bothSplits returns a folder tree <group>/<split>-<id> holding the files
// of both splits of the unpacked archive (hard links where it can).
func bothSplits(b *testing.B) string {
	dir := unpacked(b)
	both := filepath.Join(b.TempDir(), "both")
	for _, split := range []string{"train", "test"} {
		root := filepath.Join(dir, "20news-bydate-"+split)
		groups, err := os.ReadDir(root)
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range groups {
			files, err := os.ReadDir(filepath.Join(root, g.Name()))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(both, g.Name()), 0o755); err != nil {
				b.Fatal(err)
			}
			for _, f := range files {
				src, dst := filepath.Join(root, g.Name(), f.Name()), filepath.Join(both, g.Name(), split+"-"+f.Name())
				if os.Link(src, dst) != nil {
					data, err := os.ReadFile(src)
					if err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(dst, data, 0o644); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
	return both
}

// BenchmarkRetrainBothSplits: train on both splits (18,846 documents).
func BenchmarkRetrainBothSplits(b *testing.B) {
	both := bothSplits(b)
	benchRun(b, nil, append([]string{"train", both, "-q", "-o", filepath.Join(b.TempDir(), "both.nbm")}, updateFlags...)...)
}

// BenchmarkUpdateTestSplit: update of the model of the train split (with
// its counts) by the test split (7,532 documents).
func BenchmarkUpdateTestSplit(b *testing.B) {
	dir := unpacked(b)
	m := filepath.Join(b.TempDir(), "train.nbm")
	var out, errb bytes.Buffer
	args := append([]string{"train", filepath.Join(dir, "20news-bydate-train"), "--keep-counts", "-q", "-o", m}, updateFlags...)
	if code := run(context.Background(), args, streams{In: strings.NewReader(""), Out: &out, Err: &errb}); code != 0 {
		b.Fatalf("train: exit %d: %s", code, errb.String())
	}
	benchRun(b, nil, "update", m, filepath.Join(dir, "20news-bydate-test"), "--no-history", "-q", "-o", filepath.Join(b.TempDir(), "u.nbm"))
}
