package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/golden"
)

// readmePath is the README, from the package's folder.
var readmePath = filepath.Join("..", "..", "README.md")

// outputMarker opens a block whose content is the standard output of the
// command it names: <!-- output: nbtext ARGS --> (or <!-- output: echo
// "TEXT" | nbtext ARGS -->) on the line before a fenced block.
var outputMarker = regexp.MustCompile("(?m)^<!-- output: (.*) -->\n```[a-z]*\n((?s:.*?))```\n")

// checkedMarker opens a console block whose commands ("$ nbtext ARGS",
// see parseDocCommand) are each followed by their output: <!-- checked -->
// on the line before the fenced block.
var checkedMarker = regexp.MustCompile("(?m)^<!-- checked -->\n```[a-z]*\n((?s:.*?))```\n")

// volatileLine matches the lines of an output that differ from run to
// run (train's summary line "seconds 1.23"): they are compared by their
// first word only.
var volatileLine = regexp.MustCompile(`(?m)^(seconds)\b.*$`)

// outputDocs returns the README and every docs/*.md, from the package's
// folder: the files whose output blocks TestREADMEOutputs checks.
func outputDocs(t *testing.T) []string {
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{readmePath}, docs...)
}

// docEdit replaces doc[start:end] with text.
type docEdit struct {
	start, end int
	text       string
}

// TestREADMEOutputs runs the commands of the README's and docs/*.md's
// checked blocks and compares what they print with what the block shows,
// so that an example in the documentation cannot drift from the program.
// Two kinds of block: a fenced block after <!-- output: nbtext ARGS -->
// is that command's standard output; a console block after <!-- checked
// --> holds "$ COMMAND" lines, each followed by its output (see
// parseDocCommand for the commands it runs: nbtext, perhaps fed by echo or
// printf, perhaps showing stderr or the exit code). The commands of one
// file run in order, in one empty folder (testdata/ of the repository
// linked into it), so that a command can use the model an earlier one
// wrote, as a reader copying them would. A command that reads the cached
// corpus (20news) needs NBTEXT_20NEWS_TARBALL (make test and CI set it);
// without it that command and the later ones of its file are skipped.
// go test ./cmd/nbtext -run TestREADMEOutputs -update rewrites the blocks
// (make readme does).
func TestREADMEOutputs(t *testing.T) {
	isolate(t)
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	paths := outputDocs(t)
	for i, p := range paths {
		if paths[i], err = filepath.Abs(p); err != nil {
			t.Fatal(err)
		}
	}
	commands, ran := 0, 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		name := "docs/" + filepath.Base(path)
		if path == paths[0] {
			name = "README.md"
		}
		// The commands of the file in document order: where their
		// output sits in doc (start:end) and what it shows.
		type docRun struct {
			at, start, end int
			cmdline, want  string
		}
		var runs []docRun
		for _, m := range outputMarker.FindAllStringSubmatchIndex(doc, -1) {
			runs = append(runs, docRun{at: m[0], start: m[4], end: m[5], cmdline: doc[m[2]:m[3]], want: doc[m[4]:m[5]]})
		}
		for _, m := range checkedMarker.FindAllStringSubmatchIndex(doc, -1) {
			segs, err := parseConsole(doc[m[2]:m[3]])
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			pos := m[2]
			for _, sg := range segs {
				start := pos + len(sg.text)
				// A blank line before the next command separates, it is
				// not output.
				want := sg.output
				if strings.HasSuffix(want, "\n\n") {
					want = strings.TrimSuffix(want, "\n")
				}
				runs = append(runs, docRun{at: pos, start: start, end: start + len(want), cmdline: sg.cmd, want: want})
				pos = start + len(sg.output)
			}
		}
		if len(runs) == 0 {
			continue
		}
		sort.Slice(runs, func(i, j int) bool { return runs[i].at < runs[j].at })
		commands += len(runs)
		dir := t.TempDir()
		if err := os.Symlink(testdata, filepath.Join(dir, "testdata")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		var edits []docEdit
		for _, r := range runs {
			c, err := parseDocCommand(r.cmdline)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if containsArg(c.args, cachedCorpus) && os.Getenv("NBTEXT_20NEWS_TARBALL") == "" {
				t.Logf("%s: skipped from here on (NBTEXT_20NEWS_TARBALL is not set): %s", name, r.cmdline)
				break
			}
			ran++
			res := nbtext(t, c.stdin, c.args...)
			if res.code != 0 && !c.showExit {
				t.Errorf("%s: %s: exit %d: %s", name, r.cmdline, res.code, res.err)
				continue
			}
			got := res.out
			if c.stderrOnly {
				got = res.err
			}
			if c.showExit {
				got += fmt.Sprintf("exit %d\n", res.code)
			}
			mask := func(s string) string { return volatileLine.ReplaceAllString(s, "$1") }
			if mask(got) == mask(r.want) {
				continue
			}
			if golden.Updating() {
				edits = append(edits, docEdit{r.start, r.end, got})
				continue
			}
			t.Errorf("%s: the output of '%s' differs from the one shown (make readme rewrites it):\n--- %s\n%s--- output\n%s", name, r.cmdline, name, r.want, got)
		}
		t.Logf("%s: %d commands", name, len(runs))
		updated := doc
		for i := len(edits) - 1; i >= 0; i-- { // from the end: indices stay valid
			updated = updated[:edits[i].start] + edits[i].text + updated[edits[i].end:]
		}
		if updated != doc {
			if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if commands == 0 {
		t.Fatal("no checked block in the README or docs/")
	}
	if ran == 0 {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set: no output block could be checked")
	}
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

// TestREADMEConfigError checks that the example of a bad value from the
// environment in docs/configuration.md is what nbtext prints: the
// variable, then the reason.
func TestREADMEConfigError(t *testing.T) {
	isolate(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "toy.tsv", toyTSV)
	for _, env := range [][2]string{{"NBTEXT_ALPHA", "x"}, {"NBTEXT_TRAIN_MIN_DF", "x"}} {
		t.Setenv(env[0], env[1])
		r := nbtext(t, "", "train", data, "-o", filepath.Join(dir, "m.nbm"))
		os.Unsetenv(env[0])
		check(t, r, exitUsage, env[0])
		line := strings.TrimPrefix(strings.SplitN(r.err, "\n", 2)[0], "nbtext: ")
		if !strings.Contains(string(b), "`"+line+"`") {
			t.Errorf("docs/configuration.md does not quote what %s=%s prints: `%s`", env[0], env[1], line)
		}
	}
}

// TestREADMEAll20Figure checks the figure of docs/evaluation.md for the
// learning curves on all 20 classes (nbtext compare 20news): the mean test
// error of logistic regression and multinomial NB with the whole training
// split.
// Minutes on a busy machine: make test-full runs it.
func TestREADMEAll20Figure(t *testing.T) {
	if testing.Short() {
		t.Skip("short: make test-full runs it")
	}
	if os.Getenv("NBTEXT_20NEWS_TARBALL") == "" {
		t.Skip("NBTEXT_20NEWS_TARBALL is not set")
	}
	isolate(t)
	r := nbtext(t, "", "compare", cachedCorpus, "-q")
	check(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	var last []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "11314" {
			last = f
		}
	}
	// "11314  b ± s  m ± s  l ± s": the errors of bernoulli, multinomial, logreg.
	if len(last) != 10 {
		t.Fatalf("no row for the whole split in:\n%s", r.out)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "evaluation.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "test error " + last[7] + "\nagainst " + last[4]
	if s := strings.Join(strings.Fields(string(b)), " "); !strings.Contains(s, strings.Join(strings.Fields(want), " ")) {
		t.Errorf("docs/evaluation.md does not say %q (compare 20news):\n%s", want, r.out)
	}
}
