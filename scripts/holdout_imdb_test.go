// Package scripts holds the tests of the shell scripts beside them.
package scripts

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeIMDB writes an aclImdb-shaped archive of made-up reviews: per label,
// n reviews over n/3 movies (three reviews each), movie m of pos and of neg
// being the same page for even m, so that some movies have both labels.
// It returns the archive's path and each review's movie by "label/id".
func fakeIMDB(t *testing.T, n int) (string, map[string]string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "aclImdb.tar.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	add := func(name, body string) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	movieOf := map[string]string{}
	for _, label := range []string{"pos", "neg"} {
		var urls strings.Builder
		for id := range n {
			m := id / 3
			movie := fmt.Sprintf("http://www.imdb.com/title/tt%07d/usercomments", m)
			if m%2 == 1 {
				movie = fmt.Sprintf("http://www.imdb.com/title/tt%07d/usercomments", 1000+m+len(label))
			}
			urls.WriteString(movie + "\n")
			movieOf[fmt.Sprintf("%s/%d", label, id)] = movie
			add(fmt.Sprintf("aclImdb/train/%s/%d_%d.txt", label, id, 1+id%4), fmt.Sprintf("review %d of %s\twith a tab<br />\nand a second line", id, label))
		}
		add("aclImdb/train/urls_"+label+".txt", urls.String())
	}
	add("aclImdb/test/pos/0_9.txt", "a test review that must not be read")
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path, movieOf
}

func runScript(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"holdout-imdb.sh"}, args...)...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func TestHoldoutIMDB(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	archive, movieOf := fakeIMDB(t, 120)
	out := t.TempDir()
	if code, msg := runScript(t, archive, out, "25", "3"); code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	read := func(dir, name string) []string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	side := map[string]string{} // movie -> file
	count := map[string]int{}
	for _, name := range []string{"train.tsv", "holdout.tsv"} {
		for _, line := range read(out, name) {
			label, text, ok := strings.Cut(line, "\t")
			if !ok || strings.Contains(text, "\t") || (label != "pos" && label != "neg") {
				t.Fatalf("%s: bad line %q", name, line)
			}
			if strings.Contains(text, "test review") {
				t.Fatalf("%s holds a test review", name)
			}
			var id int
			if _, err := fmt.Sscanf(text, "review %d of", &id); err != nil {
				t.Fatalf("%s: %q: %v", name, text, err)
			}
			if !strings.HasSuffix(text, "with a tab<br /> and a second line") {
				t.Errorf("%s: tab and line break not made spaces: %q", name, text)
			}
			movie := movieOf[fmt.Sprintf("%s/%d", label, id)]
			if s, seen := side[movie]; seen && s != name {
				t.Errorf("movie %s has reviews in both files", movie)
			}
			side[movie] = name
			count[name+" "+label]++
		}
	}
	for _, label := range []string{"pos", "neg"} {
		if n := count["holdout.tsv "+label]; n < 24 || n > 30 {
			t.Errorf("%d %s reviews held out of 120, want about 25%% (30), and at most 30", n, label)
		}
		if count["train.tsv "+label]+count["holdout.tsv "+label] != 120 {
			t.Errorf("%s: %d + %d reviews, want 120", label, count["train.tsv "+label], count["holdout.tsv "+label])
		}
	}

	// The same seed gives the same files; another seed other ones.
	again := t.TempDir()
	runScript(t, archive, again, "25", "3")
	other := t.TempDir()
	runScript(t, archive, other, "25", "4")
	if strings.Join(read(out, "holdout.tsv"), "\n") != strings.Join(read(again, "holdout.tsv"), "\n") {
		t.Error("seed 3 twice: different held-out sets")
	}
	if strings.Join(read(out, "holdout.tsv"), "\n") == strings.Join(read(other, "holdout.tsv"), "\n") {
		t.Error("seeds 3 and 4: the same held-out set")
	}

	// Outputs are never overwritten; bad arguments exit 2.
	if code, msg := runScript(t, archive, out); code != 1 || !strings.Contains(msg, "exists already") {
		t.Errorf("existing output: exit %d, %q", code, msg)
	}
	for _, args := range [][]string{{archive}, {archive, t.TempDir(), "0"}, {archive, t.TempDir(), "25", "x"}} {
		if code, _ := runScript(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args[1:], code)
		}
	}
}
