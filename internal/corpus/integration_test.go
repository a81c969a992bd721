package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// realCorpus returns the path of the 20 Newsgroups bydate archive named by
// NBTEXT_20NEWS_TARBALL, or skips the test.
func realCorpus(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv(TarballEnv)
	if p == "" {
		tb.Skip("set NBTEXT_20NEWS_TARBALL to the 20news-bydate.tar.gz archive to run this on the real corpus")
	}
	return p
}

// digest sums up texts the way the reference figures below were made with
// scikit-learn's strip functions in Python: the SHA-256 of each text's
// UTF-8 bytes followed by a NUL, first 16 hex digits; the total number of
// runes; and the number of texts that are only white space.
func digest(texts []string) (sum string, runes, blank int) {
	h := sha256.New()
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte{0})
		runes += utf8.RuneCountInString(t)
		if pyStrip(t) == "" {
			blank++
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], runes, blank
}

func TestRealCorpus(t *testing.T) {
	p := realCorpus(t)
	type ref struct {
		sum          string
		runes, blank int
	}
	// Reference figures from scikit-learn's strip_newsgroup_header, _footer
	// and _quoting applied in Python to the latin-1 decoded files, sorted by
	// label and file name.
	want := map[string]map[Remove]ref{
		"train": {
			0:             {"dfa8d654090a0688", 22054494, 0},
			RemoveHeaders: {"29e105e42232b1fe", 19906508, 18},
			RemoveFooters: {"5e201a6f97b0c35a", 19361559, 0},
			RemoveQuotes:  {"70b85ab6d12abbf3", 17568899, 0},
			RemoveHeaders | RemoveFooters | RemoveQuotes: {"718bdd184c51c5fe", 13781985, 300},
		},
		"test": {
			0:             {"f96684953982009e", 13800509, 0},
			RemoveHeaders: {"3354c2bdbcef9ec3", 12388160, 16},
			RemoveFooters: {"da5080c3a144721b", 12459208, 0},
			RemoveQuotes:  {"2aa52e5382d8385b", 10764701, 0},
			RemoveHeaders | RemoveFooters | RemoveQuotes: {"504d364bf63d5e0d", 8261569, 215},
		},
	}
	wantDocs := map[string]int{"train": 11314, "test": 7532}
	nonASCII, withCR := 0, 0
	for _, split := range []string{"train", "test"} {
		var warnings collect
		c, err := Read(p, Options{Split: split, Warn: warnings.warn})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Docs) != wantDocs[split] || len(c.Labels) != 20 || len(warnings) != 0 {
			t.Errorf("%s: %d documents, %d labels, warnings %q; want %d, 20, none",
				split, len(c.Docs), len(c.Labels), warnings, wantDocs[split])
		}
		for i, d := range c.Docs {
			if !strings.HasPrefix(d.ID, "20news-bydate-"+split+"/"+d.Label+"/") {
				t.Fatalf("%s: ID %q, label %q", split, d.ID, d.Label)
			}
			if i > 0 {
				prev := c.Docs[i-1]
				if prev.Label > d.Label || prev.Label == d.Label && prev.ID >= d.ID {
					t.Fatalf("%s: %s before %s", split, prev.ID, d.ID)
				}
			}
			high := false
			for _, r := range d.Text {
				if r > 0xFF {
					t.Fatalf("%s: rune %U: not latin-1", d.ID, r)
				}
				high = high || r >= 0x80
			}
			if high {
				nonASCII++
			}
			if strings.Contains(d.Text, "\r") {
				withCR++
			}
		}
		for r, w := range want[split] {
			texts := c.Texts()
			for i := range texts {
				texts[i] = Strip(texts[i], r)
			}
			if sum, runes, blank := digest(texts); (ref{sum, runes, blank}) != w {
				t.Errorf("%s, remove %q: digest %s, %d runes, %d blank; scikit-learn gives %s, %d, %d",
					split, r, sum, runes, blank, w.sum, w.runes, w.blank)
			}
		}
	}
	if nonASCII != 73 || withCR != 6 {
		t.Errorf("%d documents decoded from latin-1, %d with CR; want 73 and 6", nonASCII, withCR)
	}
}

// TestRealCorpusFolder unpacks four groups of the archive and checks that
// the folder reads exactly as the archive does (all of it would take
// seconds of file creation).
func TestRealCorpusFolder(t *testing.T) {
	p := realCorpus(t)
	classes := []string{"alt.atheism", "comp.graphics", "sci.crypt", "talk.religion.misc"}
	dir := unpack(t, p, func(name string) bool {
		for _, c := range classes {
			if strings.Contains(name, "/"+c+"/") {
				return true
			}
		}
		return false
	})
	for _, split := range []string{"train", "test"} {
		opts := Options{Split: split, Classes: classes}
		a, err := Read(p, opts)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Read(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Docs) < 1000 || !reflect.DeepEqual(a.Docs, d.Docs) || !reflect.DeepEqual(a.Labels, d.Labels) {
			t.Errorf("%s: the folder (%d documents) reads differently from the archive (%d)", split, len(d.Docs), len(a.Docs))
		}
	}
}

// unpack writes the raw bytes of the members of the archive at p that keep
// accepts into a new temporary folder and returns the folder.
func unpack(tb testing.TB, p string, keep func(name string) bool) string {
	tb.Helper()
	dir := tb.TempDir()
	f, err := os.Open(p)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	s, stop, err := tarStream(p, f, codecGzip)
	if err != nil {
		tb.Fatal(err)
	}
	defer stop()
	made := map[string]bool{}
	for _, m := range tarMembers(tb, s) {
		if !keep(m.name) {
			continue
		}
		out := filepath.Join(dir, filepath.FromSlash(m.name))
		if d := filepath.Dir(out); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				tb.Fatal(err)
			}
			made[d] = true
		}
		if err := os.WriteFile(out, []byte(m.body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
