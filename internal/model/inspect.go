package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Info describes a model file for people ('nbtext info', WriteTable) and
// programs (WriteJSON): what it is, what it was trained on and with which
// settings, and which terms weigh most for each class. It is built from
// the generic fields every kind has (Kind, Classes, Vocab, Params, Meta,
// W, ClassDocs), so a new kind needs no change here.
type Info struct {
	File          string `json:"file"`
	Size          int64  `json:"size"`   // bytes
	SHA256        string `json:"sha256"` // of the whole file, as sha256sum prints it
	FormatVersion int    `json:"format_version"`
	Kind          string `json:"kind"`
	// Classes are the class names in id order.
	Classes []string `json:"classes"`
	// ClassDocs are the training documents of each class, in id order,
	// for the kinds that keep them (nil, JSON null, for the others).
	ClassDocs []float64 `json:"class_docs"`
	Terms     int       `json:"terms"` // vocabulary size V
	// Buckets is 2^HashBits for a model with feature hashing (its terms
	// are then the buckets used), else absent.
	Buckets   int `json:"buckets,omitempty"`
	VocabDocs int `json:"vocabulary_docs"` // documents the vocabulary was fitted on
	// Settings are the tokenizer and weighting settings.
	Settings vectorize.Settings `json:"settings"`
	Params   Params             `json:"params"`
	Version  string             `json:"nbtext_version"` // of the nbtext that wrote the file
	// CreatedBy is what the writer recorded about its run, if anything.
	CreatedBy string `json:"created_by,omitempty"`
	// Trained says how train's streaming changed the fit (Meta.Trained).
	Trained string `json:"trained,omitempty"`
	// Top lists, for each class in id order, the terms that weigh most
	// for it (see Model.TopTerms).
	Top []ClassTerms `json:"top_terms"`
	// Fields are the parameters of the model's record fields (see
	// Model.FieldInfo), absent for a text-only model.
	Fields []FieldInfo `json:"fields,omitempty"`
	// Members are an ensemble's models (see MemberInfo), and Auto the
	// summary of the search that chose it; absent for the other kinds.
	Members []MemberInfo    `json:"members,omitempty"`
	Auto    json.RawMessage `json:"auto,omitempty"`
	// History is what 'nbtext update' and 'nbtext forget' did to the
	// model since it was trained (Meta.History); absent for a model as
	// train wrote it.
	History []Step `json:"history,omitempty"`
}

// ClassTerms are the terms that weigh most for one class.
type ClassTerms struct {
	Class string       `json:"class"`
	Terms []TermWeight `json:"terms"`
}

// TermWeight is a term and its weight for a class.
type TermWeight struct {
	Term   string `json:"term"`
	Weight Weight `json:"weight"`
	// Names are, for a bucket of a hashed model, the most frequent terms
	// it holds with their training occurrences.
	Names []vectorize.TermCount `json:"names,omitempty"`
}

// Weight is a float64 that writes ±Inf as the JSON strings "+Inf" and
// "-Inf" (JSON has no infinities; NB weights may be infinite when α = 0).
type Weight float64

// MarshalJSON writes w as a JSON number, or ±Inf as a string.
func (w Weight) MarshalJSON() ([]byte, error) {
	x := float64(w)
	switch {
	case math.IsInf(x, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(x):
		return []byte(`"NaN"`), nil
	}
	return strconv.AppendFloat(nil, x, 'g', 6, 64), nil
}

// InfoOptions are what 'nbtext info' shows of a model or counts file:
// the Top terms of each class, written as Format (table or json).
type InfoOptions struct {
	Top    int
	Format string
}

// Validate reports the first option out of range.
func (o InfoOptions) Validate() error {
	if o.Top < 0 {
		return fmt.Errorf("--top must be ≥ 0, got %d", o.Top)
	}
	if o.Format != "table" && o.Format != "json" {
		return fmt.Errorf("--format must be table or json, got %q", o.Format)
	}
	return nil
}

// Inspect reads the model file at path, checking it as Load does, and
// describes it with the top terms of each class (see TopTerms). Its
// errors are Load's.
func Inspect(path string, top int) (*Info, error) {
	_, info, err := LoadInfo(path, top)
	return info, err
}

// LoadInfo is Load and Inspect in one read of the file, so the model and
// its description are of the same file even when it is being replaced.
func LoadInfo(path string, top int) (*Model, *Info, error) {
	h := sha256.New()
	head := &prefix{max: headerSize}
	m, size, err := load(path, io.MultiWriter(h, head))
	if err != nil {
		return nil, nil, err
	}
	return m, describe(m, path, size, hex.EncodeToString(h.Sum(nil)), int(binary.LittleEndian.Uint16(head.b[8:10])), top), nil
}

// describe is the Info of m, read from path.
func describe(m *Model, path string, size int64, sum string, version, top int) *Info {
	if m.Kind == Ensemble {
		info := &Info{File: path, Size: size, SHA256: sum,
			FormatVersion: version, Kind: m.Kind.String(), Classes: m.Classes,
			Version: m.Meta.Version, CreatedBy: m.Meta.CreatedBy}
		ensembleInfo(info, m)
		return info
	}
	return &Info{
		File:          path,
		Size:          size,
		SHA256:        sum,
		FormatVersion: version,
		Kind:          m.Kind.String(),
		Classes:       m.Classes,
		ClassDocs:     m.ClassDocs,
		Terms:         m.NumTerms(),
		VocabDocs:     m.Vocab.NDocs,
		Settings:      m.Vocab.Settings,
		Params:        m.Params,
		Version:       m.Meta.Version,
		CreatedBy:     m.Meta.CreatedBy,
		Trained:       m.Meta.Trained,
		Buckets:       m.buckets(),
		Top:           m.TopTerms(top),
		Fields:        m.FieldInfo(),
		History:       m.Meta.History,
	}
}

// prefix keeps the first max bytes written to it.
type prefix struct {
	b   []byte
	max int
}

func (p *prefix) Write(b []byte) (int, error) {
	if n := p.max - len(p.b); n > 0 {
		p.b = append(p.b, b[:min(n, len(b))]...)
	}
	return len(b), nil
}

// TopTerms returns, for each class in id order, the n terms that weigh
// most for it, heaviest first (ties by term id). The weight of term t for
// class c is W[t,c] minus the mean of the term's finite weights over all
// classes: adding the same constant to a term's weights in every class
// changes no probability, so this centred weight is what the term adds to
// the log-odds of c against an average class (for L2-regularised logistic
// regression, whose weights already sum to 0 over the classes, it is W
// itself). An infinite weight stays infinite. Heavy terms a person would
// not expect (mail header words, names) show what the model learnt from,
// including leakage.
func (m *Model) TopTerms(n int) []ClassTerms {
	C := len(m.Classes)
	out := make([]ClassTerms, C)
	for c := range out {
		out[c] = ClassTerms{Class: m.Classes[c], Terms: []TermWeight{}}
	}
	V := m.NumTerms()
	n = min(n, V)
	if n <= 0 || C == 0 {
		return out
	}
	best := make([][]scored, C) // per class, heaviest first, at most n
	for c := range best {
		best[c] = make([]scored, 0, n+1)
	}
	for t := 0; t < V; t++ {
		row := m.W[t*C : (t+1)*C]
		sum, k := 0.0, 0
		for _, w := range row {
			if !math.IsInf(w, 0) {
				sum += w
				k++
			}
		}
		mean := 0.0
		if k > 0 {
			mean = sum / float64(k)
		}
		for c, w := range row {
			if !math.IsInf(w, 0) {
				w -= mean
			}
			best[c] = keepTop(best[c], scored{t, w}, n)
		}
	}
	for c, b := range best {
		for _, s := range b {
			out[c].Terms = append(out[c].Terms, TermWeight{Term: m.termName(s.t), Weight: Weight(s.w), Names: m.bucketNames(s.t)})
		}
	}
	return out
}

// termName returns term t's text, or "#t" for a model without one.
func (m *Model) termName(t int) string {
	if m.Vocab != nil && t < len(m.Vocab.Terms) {
		return m.Vocab.Terms[t]
	}
	return "#" + strconv.Itoa(t)
}

// scored is a term id and its weight for one class.
type scored struct {
	t int
	w float64
}

// keepTop inserts s into best, sorted heaviest first (ties: lower term id,
// which comes first as terms are offered in id order), keeping at most n.
func keepTop(best []scored, s scored, n int) []scored {
	if len(best) == n && !(s.w > best[n-1].w) {
		return best
	}
	i := len(best)
	for i > 0 && s.w > best[i-1].w {
		i--
	}
	best = append(best, scored{})
	copy(best[i+1:], best[i:])
	best[i] = s
	if len(best) > n {
		best = best[:n]
	}
	return best
}

// Write writes info in format: "table" (WriteTable) or "json"
// (WriteJSON); another format is an error.
func (info *Info) Write(w io.Writer, format string) error {
	switch format {
	case "table":
		return info.WriteTable(w)
	case "json":
		return info.WriteJSON(w)
	}
	return fmt.Errorf("--format must be table or json, got %q", format)
}

// WriteJSON writes info as one indented JSON object.
func (info *Info) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// weightingKeys are the settings shown as weighting; the others describe
// the tokenizer and the vocabulary.
var weightingKeys = map[string]bool{"weighting": true, "sublinear_tf": true, "norm": true}

// WriteTable writes info for a person: one field per line, the classes
// with their training documents, and the top terms of each class.
func (info *Info) WriteTable(w io.Writer) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	row := func(k, format string, a ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, a...)) }
	row("file", "%s", info.File)
	row("size", "%d bytes", info.Size)
	row("sha256", "%s", info.SHA256)
	row("format", "version %d", info.FormatVersion)
	version := info.Version
	if version == "" {
		version = "unknown"
	}
	row("written by", "nbtext %s", version)
	if info.CreatedBy != "" {
		row("created by", "%s", info.CreatedBy)
	}
	if info.Trained != "" {
		row("training", "%s", info.Trained)
	} else if info.CreatedBy == "nbtext train" && len(info.Members) == 0 {
		row("training", "in memory, or streamed where that gives the same model (train's summary said which)")
	}
	row("kind", "%s", info.Kind)
	if len(info.Members) > 0 {
		row("vocabulary", "%d terms in all from %d documents", info.Terms, info.VocabDocs)
		if err := tw.Flush(); err != nil {
			return err
		}
		if err := writeMembers(&b, info); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\nclasses (%d)\n  %s\n", len(info.Classes), strings.Join(oneLineAll(info.Classes), ", "))
		_, err := w.Write(b.Bytes())
		return err
	}
	row("vocabulary", "%d terms from %d documents", info.Terms, info.VocabDocs)
	if info.Buckets > 0 {
		row("hashing", "%d buckets (2^%d, XXH64 of each term), %d used; terms show a bucket's most frequent names", info.Buckets, info.Settings.HashBits, info.Terms)
	}
	var tok, wt []string
	for _, kv := range jsonFields(info.Settings) {
		if weightingKeys[kv[0]] {
			wt = append(wt, kv[0]+"="+kv[1])
		} else {
			tok = append(tok, kv[0]+"="+kv[1])
		}
	}
	row("tokenizer", "%s", strings.Join(tok, " "))
	row("weighting", "%s", strings.Join(wt, " "))
	var params []string
	for _, kv := range jsonFields(info.Params) {
		if kv[0] == "em" || kv[0] == "profile" {
			continue // a row of its own, below
		}
		switch kv[1] {
		case "0", `""`, "false", "null", "[]":
			continue // not set (or not used by this kind): --format json shows every field
		}
		params = append(params, kv[0]+"="+kv[1])
	}
	row("params", "%s", strings.Join(params, " "))
	if info.Params.Profile != "" {
		row("defaults", "%s", info.Params.Profile)
	}
	if em := info.Params.EM; em != nil {
		row("em", "%s", em.Summary())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(info.History) > 0 {
		fmt.Fprintf(&b, "\nhistory (%d steps)\n", len(info.History))
		for _, st := range info.History {
			fmt.Fprintf(&b, "  %s\n", oneLine.Replace(st.String()))
		}
	}

	fmt.Fprintf(&b, "\nclasses (%d)\n", len(info.Classes))
	tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  id\tclass\tdocs\n")
	for c, name := range info.Classes {
		docs := "-"
		if info.ClassDocs != nil {
			docs = strconv.FormatFloat(info.ClassDocs[c], 'g', -1, 64)
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", c, oneLine.Replace(name), docs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if info.ClassDocs == nil {
		fmt.Fprintf(&b, "  (a %s model keeps no per-class document counts)\n", info.Kind)
	}

	n := 0
	for _, ct := range info.Top {
		n = max(n, len(ct.Terms))
	}
	if n > 0 {
		fmt.Fprintf(&b, "\ntop %d terms per class (weight: W[term,class] minus the term's mean weight over the classes)\n", n)
		for _, ct := range info.Top {
			fmt.Fprintf(&b, "%s\n", ct.Class)
			tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
			for _, tm := range ct.Terms {
				fmt.Fprintf(tw, "  %s\t%s\n", oneLine.Replace(tm.Term+namesSuffix(tm.Names)), formatWeight(float64(tm.Weight)))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	if err := writeFieldTable(&b, info.Fields, info.Classes); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeFieldTable writes the parameters of each record field: for a
// categorical field one row per value (the last, for naive Bayes, an
// unseen value) and one column per class; for a numeric field one row per
// class.
func writeFieldTable(b *bytes.Buffer, fields []FieldInfo, classes []string) error {
	if len(fields) > 0 {
		fmt.Fprintf(b, "\nfields (%d)\n", len(fields))
	}
	for _, f := range fields {
		if len(f.Classes) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
		switch {
		case f.Kind == "categorical":
			what := "one-hot weight of each value"
			if f.Alpha > 0 {
				what = fmt.Sprintf("P(value|class), Dirichlet α=%g", f.Alpha)
				if f.Shrink > 0 {
					what += fmt.Sprintf(", shrunk towards the pooled distribution with m=%.4g", f.Shrink)
				}
			}
			fmt.Fprintf(b, "%s (categorical): %s\n", oneLine.Replace(f.Name), what)
			values := make([]string, 0, len(f.Classes[0].Values))
			for v := range f.Classes[0].Values {
				if v != "(unseen)" {
					values = append(values, v)
				}
			}
			slices.Sort(values)
			if _, ok := f.Classes[0].Values["(unseen)"]; ok {
				values = append(values, "(unseen)")
			}
			fmt.Fprintf(tw, "  value\t%s\n", strings.Join(oneLineAll(classes), "\t"))
			for _, v := range values {
				cells := make([]string, len(f.Classes))
				for c, cp := range f.Classes {
					cells[c] = strconv.FormatFloat(cp.Values[v], 'g', 4, 64)
				}
				fmt.Fprintf(tw, "  %s\t%s\n", oneLine.Replace(v), strings.Join(cells, "\t"))
			}
		case f.Density == "qda":
			fmt.Fprintf(b, "%s (numeric): class mean and variance (diagonal of the class covariance; a missing value is %.4g)\n", oneLine.Replace(f.Name), *f.Center)
			fmt.Fprintf(tw, "  class\tmean\tvar\n")
			for _, cp := range f.Classes {
				fmt.Fprintf(tw, "  %s\t%.4g\t%.4g\n", oneLine.Replace(cp.Class), *cp.Mean, *cp.Var)
			}
		case f.Density == "kernel":
			fmt.Fprintf(b, "%s (numeric): Gaussian kernel density on %d grid points; mean and variance of the values, bandwidth h\n", oneLine.Replace(f.Name), f.Bins)
			fmt.Fprintf(tw, "  class\tmean\tvar\th\n")
			for _, cp := range f.Classes {
				fmt.Fprintf(tw, "  %s\t%.4g\t%.4g\t%.4g\n", oneLine.Replace(cp.Class), *cp.Mean, *cp.Var, *cp.Bandwidth)
			}
		case f.Center != nil:
			fmt.Fprintf(b, "%s (numeric): weight of (x - %.4g) / %.4g\n", oneLine.Replace(f.Name), *f.Center, *f.Scale)
			fmt.Fprintf(tw, "  class\tweight\n")
			for _, cp := range f.Classes {
				fmt.Fprintf(tw, "  %s\t%s\n", oneLine.Replace(cp.Class), formatWeight(*cp.Weight))
			}
		default:
			fmt.Fprintf(b, "%s (numeric): Gaussian mean and variance (ε=%.4g added)\n", oneLine.Replace(f.Name), f.Epsilon)
			fmt.Fprintf(tw, "  class\tmean\tvar\n")
			for _, cp := range f.Classes {
				fmt.Fprintf(tw, "  %s\t%.4g\t%.4g\n", oneLine.Replace(cp.Class), *cp.Mean, *cp.Var)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// oneLineAll applies oneLine to each of names.
func oneLineAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = oneLine.Replace(n)
	}
	return out
}

// oneLine keeps a term on its line of the table.
var oneLine = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// formatWeight writes a weight with its sign and 4 decimals.
func formatWeight(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	case x >= 0:
		return "+" + strconv.FormatFloat(x, 'f', 4, 64)
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

// jsonFields returns the members of v's JSON object in order, each as its
// key and value: strings unquoted unless empty, anything else as compact
// JSON. v must encode as an object.
func jsonFields(v any) [][2]string {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	var out [][2]string
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return out
		}
		val := string(raw)
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" && !strings.ContainsAny(s, " \t\n") {
			val = s
		}
		out = append(out, [2]string{kt.(string), val})
	}
	return out
}
