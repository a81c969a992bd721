package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// parseRequest decodes the body of POST /v1/predict (valid UTF-8, checked
// before) into a request. It reads the request's one shape directly, in
// one pass and without reflection: encoding/json's Decoder (a validating
// scan, a copy, then a decoding scan) cost as much as scoring the
// document. Strings are decoded as encoding/json decodes them (invalid
// \u surrogates become U+FFFD); "record" and "records" are kept as raw
// JSON, checked with json.Valid and parsed later as predict parses a JSONL
// line. Member names match regardless of case, unknown ones are an
// error, duplicated ones keep the last value,
// and null leaves a member unset, as encoding/json with
// DisallowUnknownFields does (except that it keeps a raw null for
// "record").
func parseRequest(b []byte) (request, error) {
	p := &parser{b: b}
	req, err := p.request()
	if err != nil {
		return req, errorf(http.StatusBadRequest, "malformed request: %v", err)
	}
	return req, nil
}

type parser struct {
	b []byte
	i int
}

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// errAt describes what is wrong at the current offset.
func (p *parser) errAt(what string) error {
	if p.i >= len(p.b) {
		return fmt.Errorf("unexpected end of JSON input")
	}
	return fmt.Errorf("%s at offset %d", what, p.i)
}

func (p *parser) request() (request, error) {
	var req request
	p.ws()
	if p.i >= len(p.b) {
		return req, fmt.Errorf("empty body: want a JSON object like {\"text\": \"...\"}")
	}
	if p.b[p.i] != '{' {
		return req, fmt.Errorf("want a JSON object like {\"text\": \"...\"}")
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return req, p.end()
	}
	for {
		p.ws()
		key, err := p.str()
		if err != nil {
			return req, err
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return req, p.errAt("want ':' after a member name")
		}
		p.i++
		p.ws()
		if err := p.member(&req, key); err != nil {
			return req, err
		}
		p.ws()
		if p.i >= len(p.b) {
			return req, p.errAt("")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			continue
		case '}':
			p.i++
			return req, p.end()
		}
		return req, p.errAt("want ',' or '}' after a member")
	}
}

// end checks that nothing but white space follows the object.
func (p *parser) end() error {
	p.ws()
	if p.i < len(p.b) {
		return fmt.Errorf("data after the JSON object")
	}
	return nil
}

// null consumes a null, reporting whether there was one.
func (p *parser) null() bool {
	if len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "null" {
		p.i += 4
		return true
	}
	return false
}

// members are the names of a request's members.
var members = []string{"model", "text", "texts", "record", "records", "top_k", "threshold", "explain", "costs"}

// canonical is the member name key stands for: names match regardless of
// case, as encoding/json matches them (Unicode simple folding).
func canonical(key string) string {
	for _, m := range members {
		if key == m {
			return m
		}
	}
	for _, m := range members {
		if strings.EqualFold(key, m) {
			return m
		}
	}
	return key
}

func (p *parser) member(req *request, key string) error {
	key = canonical(key)
	if p.null() {
		switch key {
		case "model", "costs", "top_k", "explain":
		case "text":
			req.Text = nil
		case "texts":
			req.Texts = nil
		case "record":
			req.Record = nil
		case "records":
			req.Records = nil
		case "threshold":
			req.Threshold = nil
		default:
			return fmt.Errorf("unknown field %q", key)
		}
		return nil
	}
	var err error
	switch key {
	case "model":
		req.Model, err = p.strValue(key)
	case "costs":
		req.Costs, err = p.strValue(key)
	case "text":
		var s string
		if s, err = p.strValue(key); err == nil {
			req.Text = &s
		}
	case "texts":
		req.Texts = []string{}
		err = p.array(key, func() error {
			s, err := p.strValue(key + " element")
			req.Texts = append(req.Texts, s)
			return err
		})
	case "record":
		req.Record, err = p.raw(key)
	case "records":
		req.Records = []json.RawMessage{}
		err = p.array(key, func() error {
			raw, err := p.raw(key + " element")
			req.Records = append(req.Records, raw)
			return err
		})
	case "top_k":
		req.TopK, err = p.integer(key)
	case "explain":
		req.Explain, err = p.integer(key)
	case "threshold":
		var x float64
		if x, err = p.number(key); err == nil {
			req.Threshold = &x
		}
	default:
		return fmt.Errorf("unknown field %q", key)
	}
	return err
}

// kind names the JSON value at the current offset, for errors.
func (p *parser) kind() string {
	if p.i >= len(p.b) {
		return "nothing"
	}
	switch c := p.b[p.i]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "bool"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	}
	return "value"
}

func (p *parser) strValue(key string) (string, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", fmt.Errorf("%q must not be a JSON %s", key, p.kind())
	}
	return p.str()
}

// str reads a JSON string.
func (p *parser) str() (string, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", p.errAt("want a string")
	}
	p.i++
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := string(p.b[start:p.i])
			p.i++
			return s, nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", p.errAt("control character in a string")
		}
		p.i++
	}
	return "", p.errAt("")
}

// escaped finishes a string that holds escapes, from start.
func (p *parser) escaped(start int) (string, error) {
	out := make([]byte, 0, p.i-start+64)
	out = append(out, p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c < 0x20:
			return "", p.errAt("control character in a string")
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.b) {
			break
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errAt("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A pair makes one rune; anything else is U+FFFD, as
				// encoding/json decodes it.
				r2 := rune(-1)
				if len(p.b)-p.i >= 6 && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if x, ok := p.hex4(); ok {
						r2 = x
					} else {
						p.i = save
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						p.i = save
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			p.i -= 2
			return "", p.errAt("invalid escape in a string")
		}
	}
	return "", p.errAt("")
}

func (p *parser) hex4() (rune, bool) {
	if len(p.b)-p.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

// array reads a JSON array, calling elem at each element.
func (p *parser) array(key string, elem func() error) error {
	if p.i >= len(p.b) || p.b[p.i] != '[' {
		return fmt.Errorf("%q must not be a JSON %s", key, p.kind())
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.ws()
		if err := elem(); err != nil {
			return err
		}
		p.ws()
		if p.i >= len(p.b) {
			return p.errAt("")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			continue
		case ']':
			p.i++
			return nil
		}
		return p.errAt("want ',' or ']' in an array")
	}
}

// numberToken returns the bytes of a JSON number.
func (p *parser) numberToken(key string) ([]byte, error) {
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.i = start
		return nil, fmt.Errorf("%q must not be a JSON %s", key, p.kind())
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.errAt("invalid number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.errAt("invalid number")
		}
	}
	return p.b[start:p.i], nil
}

func (p *parser) integer(key string) (int, error) {
	tok, err := p.numberToken(key)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(tok))
	if err != nil {
		return 0, fmt.Errorf("%q must be an integer, got %s", key, tok)
	}
	return n, nil
}

func (p *parser) number(key string) (float64, error) {
	tok, err := p.numberToken(key)
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		return 0, fmt.Errorf("%q: number %s out of range", key, tok)
	}
	return x, nil
}

// raw reads any JSON value and returns its bytes, checked with json.Valid.
func (p *parser) raw(key string) (json.RawMessage, error) {
	start := p.i
	depth := 0
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			if _, err := p.str(); err != nil {
				return nil, err
			}
			if depth == 0 {
				return p.checkRaw(key, start)
			}
			continue
		case c == '{' || c == '[':
			depth++
		case (c == '}' || c == ']') && depth == 0:
			return p.checkRaw(key, start) // the end of a scalar
		case c == '}' || c == ']':
			depth--
			if depth < 0 {
				return nil, p.errAt("unexpected " + string(c))
			}
			if depth == 0 {
				p.i++
				return p.checkRaw(key, start)
			}
		case depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return p.checkRaw(key, start)
		}
		p.i++
	}
	if depth == 0 && p.i > start {
		return p.checkRaw(key, start)
	}
	return nil, p.errAt("")
}

func (p *parser) checkRaw(key string, start int) (json.RawMessage, error) {
	raw := p.b[start:p.i]
	if !json.Valid(raw) {
		return nil, fmt.Errorf("%q: invalid JSON value at offset %d", key, start)
	}
	return json.RawMessage(raw), nil
}
