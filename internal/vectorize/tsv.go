package vectorize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Vocabulary file format version: WriteTSV writes it, ReadTSV reads it and
// every older one.
const vocabFormat = 1

// vocabMagic opens every vocabulary file, followed by " v<version>".
const vocabMagic = "# nbtext vocabulary"

// WriteTSV writes v as a vocabulary file (see the package documentation):
// the settings lines, the header "term\tdf\tcf", then one line per term in
// the order of Top: df descending, then term ascending.
func WriteTSV(w io.Writer, v *Vocabulary) error {
	settings, err := json.Marshal(v.Settings)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%s v%d\n# terms %d\n# documents %d\n# settings %s\nterm\tdf\tcf\n",
		vocabMagic, vocabFormat, len(v.Terms), v.NDocs, settings)
	var line []byte
	esc := v.Settings.escapes()
	for _, id := range v.Top(0) {
		if esc {
			line = appendEscaped(line[:0], v.Terms[id])
		} else {
			line = append(line[:0], v.Terms[id]...)
		}
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(v.DF[id]), 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, v.CF[id], 10)
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadTSV reads a vocabulary file written by WriteTSV. name is used in
// error messages, which point at the line: "vocab.tsv:17: df is not a
// number". The terms are renumbered in ascending order, so the vocabulary
// read back assigns the ids of the one written. A file from a newer nbtext
// (a higher format version) is refused.
func ReadTSV(r io.Reader, name string) (*Vocabulary, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	lineNo := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
	}
	var (
		s                 = DefaultSettings()
		haveMagic         bool
		haveDocs, haveSet bool
		haveHeader        bool
		nDocs             int
		nTerms            = -1
		terms             []string
		df                []int32
		cf                []int64
		lines             []int32 // line of each term, for errors
	)
	for sc.Scan() {
		lineNo++
		line := sc.Bytes()
		line = bytes.TrimSuffix(line, []byte("\r"))
		if !haveHeader {
			text := string(line)
			if lineNo == 1 {
				rest, ok := strings.CutPrefix(text, vocabMagic+" v")
				version, err := strconv.Atoi(rest)
				if !ok || err != nil || version < 1 {
					return nil, fail("not an nbtext vocabulary file (want a first line %q)", fmt.Sprintf("%s v%d", vocabMagic, vocabFormat))
				}
				if version > vocabFormat {
					return nil, fail("vocabulary format v%d is newer than this nbtext reads (v%d): upgrade nbtext", version, vocabFormat)
				}
				haveMagic = true
				continue
			}
			switch {
			case strings.HasPrefix(text, "# documents "):
				n, err := strconv.Atoi(strings.TrimPrefix(text, "# documents "))
				if err != nil || n < 0 {
					return nil, fail("bad document count %q", strings.TrimPrefix(text, "# documents "))
				}
				nDocs, haveDocs = n, true
			case strings.HasPrefix(text, "# terms "):
				n, err := strconv.Atoi(strings.TrimPrefix(text, "# terms "))
				if err != nil || n < 0 {
					return nil, fail("bad term count %q", strings.TrimPrefix(text, "# terms "))
				}
				nTerms = n
			case strings.HasPrefix(text, "# settings "):
				s.Analysis = Analysis{} // not recorded: the analyzer of older files
				dec := json.NewDecoder(strings.NewReader(strings.TrimPrefix(text, "# settings ")))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&s); err != nil {
					return nil, fail("bad settings: %v", err)
				}
				if err := s.Validate(); err != nil {
					return nil, fail("bad settings: %v", err)
				}
				haveSet = true
			case strings.HasPrefix(text, "#"), text == "":
				// a comment
			case text == "term\tdf\tcf":
				if !haveDocs {
					return nil, fail("header before the \"# documents N\" line")
				}
				if !haveSet {
					return nil, fail("header before the \"# settings {...}\" line")
				}
				haveHeader = true
				if nTerms >= 0 {
					terms = make([]string, 0, nTerms)
					df = make([]int32, 0, nTerms)
					cf = make([]int64, 0, nTerms)
				}
			default:
				return nil, fail("want the header \"term\\tdf\\tcf\", got %q", clip(text))
			}
			continue
		}
		if len(line) == 0 {
			continue
		}
		t1 := bytes.IndexByte(line, '\t')
		if t1 < 0 {
			return nil, fail("want term<TAB>df<TAB>cf, got %q", clip(string(line)))
		}
		t2 := bytes.IndexByte(line[t1+1:], '\t')
		if t2 < 0 {
			return nil, fail("want term<TAB>df<TAB>cf, got %q", clip(string(line)))
		}
		t2 += t1 + 1
		if t1 == 0 {
			return nil, fail("empty term")
		}
		d, err := strconv.ParseInt(string(line[t1+1:t2]), 10, 32)
		if err != nil || d < 0 || int(d) > nDocs {
			return nil, fail("df must be a whole number in 0..%d (the documents), got %q", nDocs, line[t1+1:t2])
		}
		c, err := strconv.ParseInt(string(line[t2+1:]), 10, 64)
		if err != nil || c < d {
			return nil, fail("cf must be a whole number ≥ df (%d), got %q", d, line[t2+1:])
		}
		term := string(line[:t1])
		if s.escapes() {
			if term, err = unescapeTerm(term); err != nil {
				return nil, fail("%v", err)
			}
		}
		terms = append(terms, term)
		df = append(df, int32(d))
		cf = append(cf, c)
		lines = append(lines, int32(lineNo))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line too long", name, lineNo+1)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case !haveMagic:
		return nil, fmt.Errorf("%s: empty file, not an nbtext vocabulary", name)
	case !haveHeader:
		return nil, fmt.Errorf("%s: no \"term\\tdf\\tcf\" header line", name)
	case nTerms >= 0 && nTerms != len(terms):
		return nil, fmt.Errorf("%s: cut short? the file announces %d terms but holds %d", name, nTerms, len(terms))
	}
	// Renumber in ascending term order.
	order := sortStrings(terms)
	st := make([]string, len(terms))
	sd := make([]int32, len(terms))
	sf := make([]int64, len(terms))
	for i, id := range order {
		st[i], sd[i], sf[i] = terms[id], df[id], cf[id]
		if i > 0 && st[i] == st[i-1] {
			l1, l2 := lines[order[i-1]], lines[id]
			return nil, fmt.Errorf("%s:%d: term %q already on line %d", name, max(l1, l2), st[i], min(l1, l2))
		}
	}
	v := newVocabulary(s, st, sd, sf, nDocs)
	return v, nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 60 {
		i := 60
		for i > 0 && s[i]&0xc0 == 0x80 {
			i--
		}
		return s[:i] + "…"
	}
	return s
}

// escapes reports whether terms of s may hold a tab, a line break or a
// backslash (character n-grams and token patterns), which the vocabulary
// file then writes escaped: "\\t", "\\n", "\\r" and "\\\\". Word terms
// never hold one, so files of the word analyzer are written as they
// always were.
func (s Settings) escapes() bool { return s.Analyzer != "" || s.TokenPattern != "" }

// appendEscaped appends term to b with tab, LF, CR and backslash escaped.
func appendEscaped(b []byte, term string) []byte {
	for i := 0; i < len(term); i++ {
		switch c := term[i]; c {
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\\':
			b = append(b, '\\', '\\')
		default:
			b = append(b, c)
		}
	}
	return b
}

// unescapeTerm undoes appendEscaped.
func unescapeTerm(term string) (string, error) {
	if !strings.Contains(term, "\\") {
		return term, nil
	}
	b := make([]byte, 0, len(term))
	for i := 0; i < len(term); i++ {
		c := term[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		if i+1 == len(term) {
			return "", fmt.Errorf("term %q ends with a lone backslash", clip(term))
		}
		i++
		switch term[i] {
		case 't':
			b = append(b, '\t')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case '\\':
			b = append(b, '\\')
		default:
			return "", fmt.Errorf("term %q has an unknown escape \\%c", clip(term), term[i])
		}
	}
	return string(b), nil
}
