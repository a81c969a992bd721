package corpus

import "unsafe"

// This file holds the JSONL reader's fast path: most JSONL corpora are
// flat objects of strings ({"label": "pos", "text": "..."}, or a label
// array such as {"label": ["joy", "love"], ...}), and decoding
// them with encoding/json (a validity pass over the line, a map of raw
// values, then each wanted value scanned and unquoted again) was a sixth
// of the CPU of `nbtext vocab --analyzer char_wb` on IMDB. flatJSON reads
// such a line in one pass, and only such a line: anything it does not
// read exactly as encoding/json does (a \u escape, an escaped key, a
// nested or non-string value where one is wanted, a wanted key given
// twice, anything invalid) sends the line to encoding/json, which then
// decodes it or names its error (TestFlatJSONMatchesEncodingJSON,
// FuzzFlatJSON).

// flatValue is one wanted value of a flat JSON object: the bytes between
// its quotes (strings) or its JSON text (numbers, booleans, null).
type flatValue struct {
	raw    []byte
	str    bool // a string: raw is its quoted content
	escape bool // the string holds a backslash escape
	arr    bool // an array of scalars (not null): raw is its JSON text
	found  bool
}

// jsonSpace marks JSON's white space.
var jsonSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// jsonPlain marks the bytes a JSON string holds as they are: not '"',
// not '\\', not a control character.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// flatJSON reads line, valid UTF-8, as one JSON object whose keys hold no
// escape and whose values are strings without a \u escape, numbers, true,
// false or null; vals[i] receives the value of keys[i]. It returns false
// when the line is anything else or a wanted key appears twice.
func flatJSON(line []byte, keys []string, vals []flatValue) bool {
	for i := range vals {
		vals[i] = flatValue{}
	}
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return skipSpace(line, i+1) == len(line)
	}
	for {
		// "key"
		if i >= len(line) || line[i] != '"' {
			return false
		}
		ks := i + 1
		j := ks
		for j < len(line) && jsonPlain[line[j]] {
			j++
		}
		if j >= len(line) || line[j] != '"' {
			return false // an escape, a control character or no end
		}
		key := line[ks:j]
		i = skipSpace(line, j+1)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		// the value
		v, j, ok := flatScalar(line, i)
		if !ok && i < len(line) && line[i] == '[' {
			v, j, ok = flatArray(line, i)
		}
		if !ok {
			return false
		}
		i = j
		for k, want := range keys {
			if string(key) == want {
				if vals[k].found {
					return false
				}
				v.found = true
				vals[k] = v
			}
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return false
		}
		if line[i] == '}' {
			return skipSpace(line, i+1) == len(line)
		}
		if line[i] != ',' {
			return false
		}
		i = skipSpace(line, i+1)
	}
}

// flatScalar reads the JSON string, number, true, false or null that
// starts at line[i] as flatJSON takes it (a string without a \u escape),
// and returns it and the index past it; false for anything else.
func flatScalar(line []byte, i int) (v flatValue, end int, ok bool) {
	if i >= len(line) {
		return v, 0, false
	}
	switch c := line[i]; {
	case c == '"':
		s := i + 1
		j := s
		for {
			for j < len(line) && jsonPlain[line[j]] {
				j++
			}
			if j >= len(line) {
				return v, 0, false
			}
			if line[j] == '"' {
				break
			}
			if line[j] != '\\' || j+1 >= len(line) {
				return v, 0, false // a control character
			}
			switch line[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				v.escape = true
				j += 2
			default:
				return v, 0, false // \u, or an invalid escape
			}
		}
		v.raw, v.str = line[s:j], true
		return v, j + 1, true
	case c == '-' || c >= '0' && c <= '9':
		j := jsonNumber(line, i)
		if j < 0 {
			return v, 0, false
		}
		v.raw = line[i:j]
		return v, j, true
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(line)-i >= len(lit) && string(line[i:i+len(lit)]) == lit {
			v.raw = line[i : i+len(lit)]
			return v, i + len(lit), true
		}
	}
	return v, 0, false // an object, an array or invalid
}

// flatArray reads the non-empty JSON array of strings, numbers and
// booleans (not null) that starts at line[i] (a label list: {"label":
// ["a", "b"]}), and returns it, its JSON text as raw, and the index past
// it; false for anything else (flatElems reads its elements).
func flatArray(line []byte, i int) (v flatValue, end int, ok bool) {
	j := skipSpace(line, i+1)
	for {
		e, k, ok := flatScalar(line, j)
		if !ok || !e.str && e.raw[0] == 'n' {
			return v, 0, false
		}
		j = skipSpace(line, k)
		if j >= len(line) {
			return v, 0, false
		}
		if line[j] == ']' {
			v.raw, v.arr = line[i:j+1], true
			return v, j + 1, true
		}
		if line[j] != ',' {
			return v, 0, false
		}
		j = skipSpace(line, j+1)
	}
}

// flatElems appends the values of the elements of the array v (flatArray
// read it) to dst, as jsonLabels takes them: a string's value, a number's
// or boolean's JSON text.
func flatElems(dst []string, v *flatValue) []string {
	line := v.raw
	j := skipSpace(line, 1)
	for {
		e, k, _ := flatScalar(line, j)
		if e.str {
			dst = append(dst, e.text())
		} else {
			dst = append(dst, string(e.raw))
		}
		j = skipSpace(line, k)
		if line[j] == ']' {
			return dst
		}
		j = skipSpace(line, j+1)
	}
}

// skipSpace returns the index of the first byte of line at or past i that
// is not JSON white space.
func skipSpace(line []byte, i int) int {
	for i < len(line) && jsonSpace[line[i]] {
		i++
	}
	return i
}

// jsonNumber returns the end of the JSON number that starts at line[i],
// or -1 if none does: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(line []byte, i int) int {
	digits := func(i int) int {
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		return j
	}
	if line[i] == '-' {
		i++
	}
	switch {
	case i >= len(line):
		return -1
	case line[i] == '0':
		i++
	case line[i] >= '1' && line[i] <= '9':
		i = digits(i)
	default:
		return -1
	}
	if i < len(line) && line[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(line) && (line[i] == 'e' || line[i] == 'E') {
		i++
		if i < len(line) && (line[i] == '+' || line[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// text returns the value of a string, its escapes decoded.
func (v *flatValue) text() string {
	if !v.escape {
		return string(v.raw)
	}
	return string(v.appendText(make([]byte, 0, len(v.raw))))
}

// appendText appends the value of a string, its escapes decoded, to b.
func (v *flatValue) appendText(b []byte) []byte {
	if !v.escape {
		return append(b, v.raw...)
	}
	raw := v.raw
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default: // '"', '\\', '/'
			c = raw[i]
		}
		b = append(b, c)
	}
	return b
}

// sharedText is the text of the text values vals (joined by newlines) as
// flatDocument gives it with shared (Options.Transient): the string holds
// the line's own bytes when it is one value without an escape, else *buf's
// bytes; either way it is valid only until the next line is read.
func sharedText(vals []flatValue, buf *[]byte) string {
	if len(vals) == 1 && !vals[0].escape {
		if len(vals[0].raw) == 0 {
			return ""
		}
		return unsafe.String(&vals[0].raw[0], len(vals[0].raw))
	}
	b := (*buf)[:0]
	for i := range vals {
		if i > 0 {
			b = append(b, '\n')
		}
		b = vals[i].appendText(b)
	}
	*buf = b
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// flatDocument is jsonlParser's document for the values flatJSON read
// (keys: the label field, the text fields, the extra fields), or false
// when the values are not all it reads as encoding/json would (a wanted
// value missing, null where a label is wanted, not a string where a text
// is): jsonlParser then decodes the line again and names the error.
//
// With opts.shared (Options.Transient) the document's label shares the
// line's bytes (when it has no escape) and its text the line's or *buf's,
// as sharedText says.
func flatDocument(where string, spec fieldSpec, vals []flatValue, opts *Options, buf *[]byte) (Document, bool, error) {
	lv := &vals[0]
	if !lv.found || !lv.str && lv.raw[0] == 'n' {
		return Document{}, false, nil
	}
	texts := vals[1 : 1+len(spec.text)]
	for i := range texts {
		if !texts[i].found || !texts[i].str {
			return Document{}, false, nil
		}
	}
	d := Document{ID: where}
	if lv.arr {
		if err := opts.setLabels(&d, where, flatElems(nil, lv)...); err != nil {
			return Document{}, true, err
		}
		return flatBody(d, spec, texts, vals, opts, buf), true, nil
	}
	var label string
	switch {
	case opts.shared && len(lv.raw) > 0 && !lv.escape:
		label = unsafe.String(&lv.raw[0], len(lv.raw))
	case lv.str:
		label = lv.text()
	default:
		label = string(lv.raw)
	}
	if err := opts.setLabels(&d, where, label); err != nil {
		return Document{}, true, err
	}
	return flatBody(d, spec, texts, vals, opts, buf), true, nil
}

// flatBody is d, labelled, with the text of the text values texts and the
// extra fields of vals, as flatDocument gives them.
func flatBody(d Document, spec fieldSpec, texts, vals []flatValue, opts *Options, buf *[]byte) Document {
	if opts.shared {
		d.Text = sharedText(texts, buf)
	} else {
		for i := range texts {
			if i > 0 {
				d.Text += "\n"
			}
			d.Text += texts[i].text()
		}
	}
	for i, e := range spec.extra {
		v := &vals[1+len(spec.text)+i]
		if !v.found || !v.str && v.raw[0] == 'n' {
			continue
		}
		s := string(v.raw)
		if v.str {
			s = v.text()
		}
		if d.Fields == nil {
			d.Fields = make(map[string]string, len(spec.extra))
		}
		d.Fields[e] = s
	}
	return d
}
