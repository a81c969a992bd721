package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestFields runs the Subject field terms through vocab, train and
// predict: they are counted with their weight, they are on by default in
// train, a model carries the setting to predict, and --fields none turns
// them off.
func TestFields(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var lines []string
	for _, d := range []struct{ label, subject, body string }{
		{"crypt", "Re: PGP keys", "which cipher do you use"},
		{"crypt", "clipper chip", "the escrow of keys"},
		{"crypt", "PGP signatures", "signing keys is easy"},
		{"graphics", "Re: opengl textures", "the gpu renders polygons"},
		{"graphics", "jpeg formats", "image compression works"},
		{"graphics", "polygon fill", "scan line rendering"},
	} {
		b, _ := json.Marshal(map[string]string{"label": d.label, "text": "From: a@b.c\nSubject: " + d.subject + "\n\n" + d.body})
		lines = append(lines, string(b))
	}
	corpus := writeFile(t, dir, "posts.jsonl", strings.Join(lines, "\n")+"\n")

	r := nbtext(t, "", "vocab", corpus, "--fields", "Subject:3", "-o", "-")
	check(t, r, 0)
	if !strings.Contains(r.out, "\nsubject:pgp\t2\t6\n") || !strings.Contains(r.out, "\nsubject:re\t2\t6\n") {
		t.Errorf("vocab --fields Subject:3: want subject:pgp and subject:re with df 2, cf 6; got\n%s", r.out)
	}
	if r := nbtext(t, "", "vocab", corpus, "-o", "-"); strings.Contains(r.out, "subject:") {
		t.Errorf("vocab without --fields has field terms:\n%s", r.out)
	}

	doc := "Subject: pgp\n\nhello there\n"
	for _, c := range []struct {
		flags []string
		want  bool // subject:pgp among the explained terms
	}{
		{nil, true},
		{[]string{"--fields", "none"}, false},
	} {
		m := filepath.Join(dir, "m.nbm")
		check(t, nbtext(t, "", append([]string{"train", corpus, "--model", "multinomial", "-q", "-o", m}, c.flags...)...), 0)
		r := nbtext(t, doc, "predict", "-m", m, "--input", "doc", "--explain", "3")
		check(t, r, 0)
		if got := strings.Contains(r.out, "subject:pgp"); got != c.want || !strings.HasPrefix(r.out, "crypt") {
			t.Errorf("train %v, predict: %q; want crypt, subject:pgp explained: %v", c.flags, r.out, c.want)
		}
	}
}
