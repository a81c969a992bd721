package vectorize

import (
	"fmt"
	"strconv"
	"strings"
)

// Field is a header field whose words become terms of their own (see
// Settings.Fields): each word w of the field's value, tokenized like the
// text but keeping stop words, adds the term Name+":"+w, Weight times.
type Field struct {
	Name   string // lower-case field name, e.g. "subject"
	Weight int    // occurrences each word adds, 1..MaxFieldWeight
}

// MaxFieldWeight bounds Field.Weight.
const MaxFieldWeight = 100

// String returns f as ParseFields reads it: "name:weight".
func (f Field) String() string { return f.Name + ":" + strconv.Itoa(f.Weight) }

// ParseFields reads a Fields setting: a comma-separated list of header
// field names, each optionally followed by ":WEIGHT" (a whole number, 1 by
// default), e.g. "subject:2,organization". Names are case-insensitive and
// returned in lower case; "" gives no fields. Errors name the --fields flag.
func ParseFields(s string) ([]Field, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var fields []Field
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		name, weight, hasWeight := strings.Cut(part, ":")
		f := Field{Name: strings.ToLower(name), Weight: 1}
		if !isFieldName(f.Name) {
			return nil, fmt.Errorf("--fields wants header field names with an optional :WEIGHT (e.g. subject:2), got %q", part)
		}
		if hasWeight {
			w, err := strconv.Atoi(weight)
			if err != nil || w < 1 || w > MaxFieldWeight {
				return nil, fmt.Errorf("--fields: the weight of %q must be a whole number in 1..%d, got %q", f.Name, MaxFieldWeight, weight)
			}
			f.Weight = w
		}
		for _, g := range fields {
			if g.Name == f.Name {
				return nil, fmt.Errorf("--fields names %q twice", f.Name)
			}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// isFieldName reports whether s is a header field name as RFC 5322 has
// it: one or more printable ASCII characters other than space and ':'.
func isFieldName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c > '~' || c == ':' {
			return false
		}
	}
	return true
}

// headerLine splits the line of text that starts at i. It returns the
// line without its line break, and the start of the next line.
func headerLine(text string, i int) (line string, next int) {
	j := strings.IndexByte(text[i:], '\n')
	if j < 0 {
		line, next = text[i:], len(text)
	} else {
		line, next = text[i:i+j], i+j+1
	}
	return strings.TrimSuffix(line, "\r"), next
}

// appendFields appends to dst the field terms of the header block that
// opens text, for the fields of t. The header block is the lines before
// the first empty one, as in a mail or news message: each is "Name: value"
// or, folded, a continuation of the field above that starts with a space
// or a tab. A first line that is neither ends the block, so a text without
// headers adds nothing, and so does a tokenizer without fields. The terms
// alias t.arena, like those of Terms.
func (t *Tokenizer) appendFields(text string, dst []string) []string {
	if len(t.fields) == 0 {
		return dst
	}
	cur := -1 // the index in t.fields of the field being read, or -1
	for i := 0; i < len(text); {
		line, next := headerLine(text, i)
		if line == "" {
			break
		}
		value := line
		if c := line[0]; c == ' ' || c == '\t' {
			if i == 0 {
				break
			}
		} else {
			name, v, ok := strings.Cut(line, ":")
			if !ok || !isFieldName(name) {
				break
			}
			cur, value = -1, v
			for k, f := range t.fields {
				if strings.EqualFold(name, f.Name) {
					cur = k
					break
				}
			}
		}
		if cur >= 0 {
			dst = t.fieldTerms(value, t.fields[cur], dst)
		}
		i = next
	}
	return dst
}

// fieldTerms appends the terms of one field value to dst.
func (t *Tokenizer) fieldTerms(value string, f Field, dst []string) []string {
	words := t.tokens(value, t.fieldWords[:0])
	t.fieldWords = words
	for _, w := range words {
		// w may alias the arena; appending never writes over it (it
		// lies before len(t.arena), or in an array a growth left behind).
		start := len(t.arena)
		t.arena = append(t.arena, f.Name...)
		t.arena = append(t.arena, ':')
		t.arena = append(t.arena, w...)
		term := t.arenaString(start)
		for range f.Weight {
			dst = append(dst, term)
		}
	}
	return dst
}
