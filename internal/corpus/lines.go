package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// lineReader yields the lines of r without their "\n" (a "\r" before it
// stays), of any length, counting them from 1.
type lineReader struct {
	r    *bufio.Reader
	long []byte // assembles lines longer than the buffer
	n    int    // number of the line last returned
	read int64  // bytes consumed
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 256<<10)}
}

// next returns the next line; the slice is valid until the following call.
// At the end it returns io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	line, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = lr.r.ReadSlice('\n')
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	lr.read += int64(len(line))
	switch {
	case err == io.EOF && len(line) == 0:
		return nil, io.EOF
	case err != nil && err != io.EOF:
		return nil, err
	}
	lr.n++
	return bytes.TrimSuffix(line, []byte{'\n'}), nil
}

// isBlank reports whether line holds only white space.
func isBlank(line []byte) bool {
	return len(bytes.TrimSpace(line)) == 0
}

// lineParser turns one non-blank line into a document; src and n name it in
// errors as "src:n".
type lineParser func(src string, n int, line []byte) (Document, error)

// parserFor returns the parser of a line format ("tsv" or "jsonl").
func parserFor(format string) lineParser {
	if format == "jsonl" {
		return parseJSONL
	}
	return parseTSV
}

// parseTSV parses "label<TAB>text". The text is everything after the first
// tab, further tabs included; the line is decoded as a whole (UTF-8 when
// valid, else latin-1).
func parseTSV(src string, n int, line []byte) (Document, error) {
	if hasNUL(line) {
		return Document{}, fmt.Errorf("%s:%d: NUL byte in line", src, n)
	}
	tab := bytes.IndexByte(line, '\t')
	switch {
	case tab < 0:
		return Document{}, fmt.Errorf("%s:%d: missing tab between label and text", src, n)
	case tab == 0:
		return Document{}, fmt.Errorf("%s:%d: empty label", src, n)
	}
	d := Document{ID: fmt.Sprintf("%s:%d", src, n)}
	if utf8.Valid(line) {
		s := string(line)
		d.Label, d.Text = s[:tab], s[tab+1:]
	} else {
		d.Label, d.Text = latin1(line[:tab]), latin1(line[tab+1:])
	}
	if strings.ContainsRune(d.Label, '\r') {
		return Document{}, fmt.Errorf("%s:%d: label %q contains a carriage return", src, n, d.Label)
	}
	return d, nil
}

// jsonDoc is one JSONL record; other fields are ignored.
type jsonDoc struct {
	Label *string `json:"label"`
	Text  *string `json:"text"`
}

// parseJSONL parses {"label": ..., "text": ...}. A line that is not valid
// UTF-8 is decoded as latin-1 before parsing.
func parseJSONL(src string, n int, line []byte) (Document, error) {
	if hasNUL(line) {
		return Document{}, fmt.Errorf("%s:%d: NUL byte in line", src, n)
	}
	if !utf8.Valid(line) {
		line = []byte(latin1(line))
	}
	var rec jsonDoc
	if err := json.Unmarshal(line, &rec); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return Document{}, fmt.Errorf("%s:%d: want a JSON object, got %s", src, n, te.Value)
			}
			return Document{}, fmt.Errorf("%s:%d: %q must be a string, got %s", src, n, te.Field, te.Value)
		}
		return Document{}, fmt.Errorf("%s:%d: invalid JSON: %w", src, n, err)
	}
	switch {
	case rec.Label == nil:
		return Document{}, fmt.Errorf("%s:%d: missing \"label\"", src, n)
	case rec.Text == nil:
		return Document{}, fmt.Errorf("%s:%d: missing \"text\"", src, n)
	case *rec.Label == "":
		return Document{}, fmt.Errorf("%s:%d: empty label", src, n)
	case strings.ContainsAny(*rec.Label, "\t\n\r\x00"):
		return Document{}, fmt.Errorf("%s:%d: label %q contains a tab, line break or NUL", src, n, *rec.Label)
	case strings.IndexByte(*rec.Text, 0) >= 0:
		return Document{}, fmt.Errorf("%s:%d: NUL character in text", src, n)
	}
	return Document{ID: fmt.Sprintf("%s:%d", src, n), Label: *rec.Label, Text: *rec.Text}, nil
}

// scanLines calls fn with each document of a TSV or JSONL stream, blank
// lines skipped. size is the stream's length when known, else 0.
func scanLines(src, format string, r io.Reader, size int64, opts *Options, fn func(Document) error) error {
	parse := parserFor(format)
	lr := newLineReader(r)
	reported := int64(0)
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", src, lr.n+1, err)
		}
		if opts.Progress != nil && lr.read-reported >= 1<<20 {
			reported = lr.read
			opts.Progress(int(lr.read), int(size))
		}
		if isBlank(line) {
			continue
		}
		d, err := parse(src, lr.n, line)
		if err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	if opts.Progress != nil {
		opts.Progress(int(lr.read), int(lr.read))
	}
	return nil
}
