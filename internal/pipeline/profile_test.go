package pipeline

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/profile"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// profileCorpus writes a TSV corpus of n short documents (a few words, far
// below train.ProfileShortChars), of two classes, the second a twentieth
// of the documents (imbalanced: below train.ProfileImbalance of an even
// share); with japanese, the words are written in Han and Hiragana with no
// spaces between them (an unsegmented script).
func profileCorpus(t *testing.T, n int, japanese bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	words := [2][]string{
		{"market", "stocks", "bank", "trade", "price", "shares", "growth", "rate"},
		{"match", "goal", "team", "player", "coach", "league", "score", "season"},
	}
	if japanese {
		words = [2][]string{
			{"市場", "株価", "銀行", "取引", "価格", "成長", "金利", "経済"},
			{"試合", "得点", "選手", "監督", "優勝", "球団", "打者", "投手"},
		}
	}
	var b strings.Builder
	for i := range n {
		c := 0
		if i%20 == 19 {
			c = 1
		}
		fmt.Fprintf(&b, "%c\t", 'a'+c)
		for k := range 4 + rng.IntN(5) {
			w := words[c][rng.IntN(8)]
			if rng.IntN(4) == 0 {
				w = words[1-c][rng.IntN(8)]
			}
			switch {
			case japanese:
				b.WriteString(w + "の")
			case k > 0:
				b.WriteString(" " + w)
			default:
				b.WriteString(w)
			}
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "c.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// profilePlan returns the plan of kind on the corpus at path, written to
// out, following the profile as follow says; changed are the flags given,
// set applies their settings and params their parameters (either may be
// nil). The models but logreg score at temperature 1, so that the streamed model is
// the one held in memory.
func profilePlan(kind model.Kind, path, out string, follow bool, mode StreamMode, changed []string, set func(*vectorize.Settings) error, params func(*model.Params)) *Plan {
	return &Plan{
		Source: Source{Paths: []string{path}}, Kind: kind, Output: out, Workers: 2,
		Stream: mode, StreamBuffer: train.DefaultStreamBuffer, FollowProfile: follow, Vectorizer: set,
		Changed: func(name string) bool {
			for _, c := range changed {
				if c == name {
					return true
				}
			}
			return false
		},
		Params: func([]string, []int) (model.Params, bool, error) {
			_, p := train.Defaults(kind)
			if kind != model.LogReg {
				p.Temperature = 1
			}
			if params != nil {
				params(&p)
			}
			return p, false, nil
		},
	}
}

// runProfile runs plan and returns the model it wrote and the file's bytes.
func runProfile(t *testing.T, plan *Plan) (*model.Model, []byte) {
	t.Helper()
	rep, err := Run(plan)
	if err != nil {
		t.Fatalf("%s: %v", plan.Kind, err)
	}
	m, err := model.Load(plan.Output)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(plan.Output)
	if err != nil {
		t.Fatal(err)
	}
	// The summary says what the model records, whatever the strategy.
	var sum bytes.Buffer
	rep.Write(&sum)
	if line := "defaults     " + m.Params.Profile; (m.Params.Profile != "") != strings.Contains(sum.String(), line) {
		t.Errorf("%s, %s: summary\n%s\nwithout the model's defaults line %q", plan.Kind, rep.Strategy, sum.String(), line)
	}
	return m, b
}

// TestProfileDefaultEveryStrategy: with FollowProfile (train's default),
// a corpus of short, imbalanced or unsegmented text gets the profile's
// choice held in memory and streamed alike, to the same model bytes;
// without it the fixed defaults; and a flag given wins over the rule.
func TestProfileDefaultEveryStrategy(t *testing.T) {
	short := profileCorpus(t, 1200, false)
	japanese := profileCorpus(t, 1200, true)
	// More documents than the sample: the held ones are counted once it
	// is full, then the rest as they come.
	many := profileCorpus(t, profile.SampleDocs+300, false)
	dir := t.TempDir()
	type check func(m *model.Model) string
	analyzer := func(want string) check {
		return func(m *model.Model) string {
			if got := cmp.Or(m.Vocab.Settings.Analyzer, "word"); got != want {
				return fmt.Sprintf("analyzer %q, want %q", got, want)
			}
			return ""
		}
	}
	weighting := func(want string) check {
		return func(m *model.Model) string {
			if m.Vocab.Settings.Weighting != want {
				return fmt.Sprintf("weighting %q, want %q", m.Vocab.Settings.Weighting, want)
			}
			return ""
		}
	}
	alpha := func(want float64) check {
		return func(m *model.Model) string {
			if m.Params.Alpha != want || m.Params.Beta != want {
				return fmt.Sprintf("α, β = %g, %g, want %g", m.Params.Alpha, m.Params.Beta, want)
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name    string
		kind    model.Kind
		corpus  string
		follow  bool
		changed []string
		set     func(*vectorize.Settings) error
		params  func(*model.Params)
		want    []check
		note    string // in the model's params.profile ("": none)
	}{
		{name: "nblr short", kind: model.NBLR, corpus: short, follow: true,
			want: []check{analyzer("char_wb")}, note: "--analyzer char_wb --char-ngram 2,4 (median document"},
		{name: "logreg short", kind: model.LogReg, corpus: short, follow: true,
			want: []check{analyzer("char_wb")}, note: "--analyzer char_wb"},
		{name: "nblr short, not following", kind: model.NBLR, corpus: short,
			want: []check{analyzer("word")}},
		{name: "nblr short, --analyzer word", kind: model.NBLR, corpus: short, follow: true, changed: []string{"analyzer"},
			set:  func(s *vectorize.Settings) error { s.Analysis.Analyzer = ""; return nil },
			want: []check{analyzer("word")}},
		{name: "multinomial imbalanced", kind: model.Multinomial, corpus: short, follow: true,
			want: []check{analyzer("word"), weighting("count")}, note: "--weighting count --norm none"},
		{name: "multinomial imbalanced, not following", kind: model.Multinomial, corpus: short,
			want: []check{weighting("tfidf")}},
		{name: "multinomial imbalanced, --weighting tfidf", kind: model.Multinomial, corpus: short, follow: true, changed: []string{"weighting"},
			want: []check{weighting("tfidf")}},
		{name: "multinomial unsegmented", kind: model.Multinomial, corpus: japanese, follow: true,
			want: []check{analyzer("char_wb"), weighting("count")}, note: "of letters in scripts without spaces"},
		{name: "complement unsegmented", kind: model.Complement, corpus: japanese, follow: true,
			want: []check{analyzer("char_wb")}, note: "--analyzer char_wb"},
		{name: "multinomial past the sample", kind: model.Multinomial, corpus: many, follow: true,
			want: []check{weighting("count")}, note: "(5000 documents sampled)"},
		{name: "svm past the sample", kind: model.SVM, corpus: many, follow: true,
			want: []check{analyzer("char_wb")}, note: "(5000 documents sampled)"},
		{name: "bernoulli short", kind: model.Bernoulli, corpus: short, follow: true,
			want: []check{alpha(train.ProfileShortBernoulliAlpha)}, note: "--alpha 0.1"},
		{name: "bernoulli short, --alpha 0.5", kind: model.Bernoulli, corpus: short, follow: true, changed: []string{"alpha"},
			params: func(p *model.Params) { p.Alpha, p.Beta = 0.5, 0.5 },
			want:   []check{alpha(0.5)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var held []byte
			for _, mode := range []StreamMode{StreamNever, StreamAlways} {
				out := filepath.Join(dir, fmt.Sprintf("%s-%d.nbm", strings.ReplaceAll(tc.name, " ", "_"), mode))
				m, b := runProfile(t, profilePlan(tc.kind, tc.corpus, out, tc.follow, mode, tc.changed, tc.set, tc.params))
				for _, c := range tc.want {
					if msg := c(m); msg != "" {
						t.Errorf("stream mode %d: %s", mode, msg)
					}
				}
				switch {
				case tc.note == "" && m.Params.Profile != "":
					t.Errorf("stream mode %d: profile note %q, where it changed no default", mode, m.Params.Profile)
				case !strings.Contains(m.Params.Profile, tc.note):
					t.Errorf("stream mode %d: profile note %q, want it to say %q", mode, m.Params.Profile, tc.note)
				}
				if held == nil {
					held = b
				} else if !bytes.Equal(held, b) {
					t.Errorf("the streamed model differs from the one held in memory")

				}
			}
		})
	}
}

// TestProfileFromCounts: a fit from counts follows the class balance the
// counts record (multinomial NB on imbalanced classes fits the
// occurrences, of round-one counts of the default weighting, which it
// could not fit otherwise, and of round-two counts alike, to the model of
// round one), and keeps the analyzer the counts were counted with.
func TestProfileFromCounts(t *testing.T) {
	path := profileCorpus(t, 1200, false)
	dir := t.TempDir()
	settings, _ := train.Defaults(model.Multinomial)
	src := Source{Paths: []string{path}}
	r1, err := CountRound(&src, settings, nil, counts.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	round1 := filepath.Join(dir, "r1.nbc")
	if _, err := r1.WriteFile(round1); err != nil {
		t.Fatal(err)
	}
	r1.Close()
	cs, err := counts.ReadFile(round1)
	if err != nil {
		t.Fatal(err)
	}
	vocab, _, err := cs.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	r2, err := CountRound(&src, settings, vocab, counts.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	round2 := filepath.Join(dir, "r2.nbc")
	if _, err := r2.WriteFile(round2); err != nil {
		t.Fatal(err)
	}
	r2.Close()

	var first []byte
	for _, file := range []string{round1, round2} {
		p := profilePlan(model.Multinomial, "", filepath.Join(dir, filepath.Base(file)+".nbm"), true, StreamAuto, nil, nil, nil)
		p.Source, p.FromCounts = Source{}, file
		m, b := runProfile(t, p)
		if m.Vocab.Settings.Weighting != "count" || m.Vocab.Settings.Norm != "none" {
			t.Errorf("%s: weighting %q, norm %q; want count, none", file, m.Vocab.Settings.Weighting, m.Vocab.Settings.Norm)
		}
		if !strings.Contains(m.Params.Profile, "from counts of 1200 documents") || !strings.Contains(m.Params.Profile, "--weighting count") {
			t.Errorf("%s: profile note %q", file, m.Params.Profile)
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(first, b) {
			t.Errorf("round two's model differs from round one's")
		}
	}
	// Not following the profile, round one of tf-idf cannot be fitted;
	// round two fits its tf-idf sums.
	p := profilePlan(model.Multinomial, "", filepath.Join(dir, "fixed1.nbm"), false, StreamAuto, nil, nil, nil)
	p.Source, p.FromCounts = Source{}, round1
	if _, err := Run(p); err == nil || !strings.Contains(err.Error(), "round-one counts") {
		t.Errorf("round one, fixed defaults: err %v, want the round-two error", err)
	}
	p.FromCounts, p.Output = round2, filepath.Join(dir, "fixed2.nbm")
	if m, _ := runProfile(t, p); m.Vocab.Settings.Weighting != "tfidf" || m.Params.Profile != "" {
		t.Errorf("round two, fixed defaults: weighting %q, profile %q", m.Vocab.Settings.Weighting, m.Params.Profile)
	}
	// Bernoulli from counts: the length is not recorded, α stays.
	bs, _ := train.Defaults(model.Bernoulli)
	rb, err := CountRound(&src, bs, nil, counts.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	bfile := filepath.Join(dir, "b.nbc")
	if _, err := rb.WriteFile(bfile); err != nil {
		t.Fatal(err)
	}
	rb.Close()
	p = profilePlan(model.Bernoulli, "", filepath.Join(dir, "b.nbm"), true, StreamAuto, nil, nil, nil)
	p.Source, p.FromCounts = Source{}, bfile
	_, want := train.Defaults(model.Bernoulli)
	if m, _ := runProfile(t, p); m.Params.Alpha != want.Alpha || m.Params.Profile != "" {
		t.Errorf("bernoulli from counts: α %g (want %g), profile %q", m.Params.Alpha, want.Alpha, m.Params.Profile)
	}
}

// TestProfileDefaults: the choice for commands that hold the corpus
// (eval --cv, --auto's candidates) is the one train makes.
func TestProfileDefaults(t *testing.T) {
	path := profileCorpus(t, 1200, false)
	dir := t.TempDir()
	for _, kind := range []model.Kind{model.NBLR, model.Multinomial, model.Bernoulli} {
		m, _ := runProfile(t, profilePlan(kind, path, filepath.Join(dir, kind.String()+".nbm"), true, StreamNever, nil, nil, nil))
		src := Source{Paths: []string{path}}
		c, err := src.Load()
		if err != nil {
			t.Fatal(err)
		}
		s, p := train.Defaults(kind)
		if kind.IsNB() {
			p.Temperature = 1
		}
		ProfileDefaults(kind, &s, &p, c.Texts(), c.LabelIDs(), len(c.Labels), nil)
		ms := m.Vocab.Settings
		if s.Analysis != ms.Analysis || s.Weighting != ms.Weighting || s.Norm != ms.Norm || s.Sublinear != ms.Sublinear ||
			p.Alpha != m.Params.Alpha || p.Profile != m.Params.Profile {
			t.Errorf("%s: ProfileDefaults gives %+v, α %g, %q; train %+v, α %g, %q", kind, s, p.Alpha, p.Profile, ms, m.Params.Alpha, m.Params.Profile)
		}
	}
}

// TestCrossValidateFollowsProfile: eval --cv (FollowProfile) measures the
// defaults train chooses on the corpus: on 1,200 short Japanese documents
// nblr cross-validates character n-grams, as the model train writes
// holds; without FollowProfile, the fixed word defaults.
func TestCrossValidateFollowsProfile(t *testing.T) {
	path := profileCorpus(t, 1200, true)
	dir := t.TempDir()
	m, _ := runProfile(t, profilePlan(model.NBLR, path, filepath.Join(dir, "m.nbm"), true, StreamNever, nil, nil, nil))
	if m.Vocab.Settings.Analyzer == "" || m.Vocab.Settings.Analyzer == "word" {
		t.Fatalf("train chose analyzer %q on short Japanese text", m.Vocab.Settings.Analyzer)
	}
	terms := func(follow bool) int {
		res, err := CrossValidate(profilePlan(model.NBLR, path, "", follow, StreamNever, nil, nil, nil), 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		return res.Folds[0].Terms
	}
	followed, fixed := terms(true), terms(false)
	// The same documents, fold for fold: character n-grams make many more
	// terms than the words of the fixed defaults.
	if followed <= fixed {
		t.Errorf("fold 1 has %d terms following the profile, %d with the fixed defaults: want char n-grams, more", followed, fixed)
	}
}

// TestTrainedRecordsStreaming: a model whose fit streaming changed says
// so (Meta.Trained, info's "training" row); one streaming leaves as it
// would be in memory records nothing, so the two files stay identical.
func TestTrainedRecordsStreaming(t *testing.T) {
	path := profileCorpus(t, 300, false)
	dir := t.TempDir()
	for _, c := range []struct {
		kind model.Kind
		mode StreamMode
		temp bool // keep the kind's default temperature (fitted in memory)
		want string
	}{
		{model.Bernoulli, StreamAlways, true, "streamed: no temperature is fitted"},
		{model.Bernoulli, StreamNever, true, ""},
		{model.Bernoulli, StreamAlways, false, ""}, // --temperature given: the same model
		{model.Multinomial, StreamAlways, true, ""},
	} {
		plan := profilePlan(c.kind, path, filepath.Join(dir, "m.nbm"), false, c.mode, nil, nil, nil)
		if c.temp {
			plan.Params = func([]string, []int) (model.Params, bool, error) {
				_, p := train.Defaults(c.kind)
				return p, false, nil
			}
		}
		m, _ := runProfile(t, plan)
		if !strings.HasPrefix(m.Meta.Trained, c.want) || (c.want == "") != (m.Meta.Trained == "") {
			t.Errorf("%s, stream mode %d, default temperature %v: Trained %q, want %q", c.kind, c.mode, c.temp, m.Meta.Trained, c.want)
		}
	}
}

// TestFitCountsIsFromCounts: FitCounts (the Beam module's fit) gives the
// model train --from-counts writes from the same counts file, the
// profile's class-balance rule included (the corpus is imbalanced).
func TestFitCountsIsFromCounts(t *testing.T) {
	path := profileCorpus(t, 1200, false)
	dir := t.TempDir()
	nbc := filepath.Join(dir, "m.nbc")
	// The counts of the fixed defaults (tf-idf), as 'nbtext count' keeps them.
	plan := profilePlan(model.Multinomial, path, filepath.Join(dir, "m.nbm"), false, StreamNever, nil, nil, nil)
	plan.KeepCounts = nbc
	runProfile(t, plan)
	fc := profilePlan(model.Multinomial, "", filepath.Join(dir, "fc.nbm"), true, StreamNever, nil, nil, nil)
	fc.Source, fc.FromCounts = Source{}, nbc
	want, wantBytes := runProfile(t, fc)
	if want.Params.Profile == "" {
		t.Fatalf("the class-balance rule did not apply from counts (no profile note): the test proves nothing")
	}
	cs, err := counts.ReadFile(nbc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FitCounts(profilePlan(model.Multinomial, "", "", true, StreamNever, nil, nil, nil), cs)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := model.Encode(&b, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), wantBytes) {
		t.Errorf("FitCounts's model differs from train --from-counts's (profile %q, want %q)", got.Params.Profile, want.Params.Profile)
	}
}
