package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// errNULLine is the error of a line with a NUL byte.
var errNULLine = errors.New("NUL byte in line")

// lineReader yields the lines of r without their "\n" (a "\r" before it
// stays), up to max bytes long, counting them from 1.
type lineReader struct {
	r *bufio.Reader
	// long assembles lines longer than r's buffer. It is kept while the
	// lines stay long, so that a run of huge lines reuses one buffer, and
	// let go at the first short line past keepLong bytes, so that one huge
	// line does not pin its memory for the rest of the stream.
	long []byte
	max  int
	n    int   // number of the line last returned
	read int64 // bytes consumed
	// at, when set, is the regular, uncompressed file r reads from its
	// start: a line that outgrows r's buffer is measured there first
	// (RecordLength) and assembled in a buffer of exactly its length.
	at io.ReaderAt
}

// keepLong is the largest buffer a lineReader keeps past a short line.
const keepLong = 4 << 20

func newLineReader(r io.Reader, max int) *lineReader {
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < 64<<10 {
		br = bufio.NewReaderSize(r, 256<<10)
	}
	return &lineReader{r: br, max: max}
}

// errLineTooLong is returned by next for a line over the bound.
var errLineTooLong = errors.New("line too long")

// next returns the next line; the slice is valid until the following call.
// At the end it returns io.EOF. A line longer than the bound is
// errLineTooLong, and a long line with a NUL byte errNULLine as soon as
// the byte is seen, so an endless binary stream fails fast.
func (lr *lineReader) next() ([]byte, error) {
	line, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		line, err = lr.assemble(line)
	} else if cap(lr.long) > keepLong {
		lr.long = nil
	}
	if line == nil && err != nil && err != io.EOF {
		return nil, err
	}
	lr.read += int64(len(line))
	switch {
	case err == io.EOF && len(line) == 0:
		return nil, io.EOF
	case err != nil && err != io.EOF:
		return nil, err
	}
	line = bytes.TrimSuffix(line, []byte{'\n'})
	if len(line) > lr.max {
		return nil, errLineTooLong
	}
	lr.n++
	return line, nil
}

// assemble reads the rest of a line longer than the reader's buffer, whose
// first chunk is first, into lr.long, and returns it with the error of its
// last read (nil, or io.EOF for a last line without "\n"). The chunks go
// straight into lr.long while it has room; past that they are kept as
// pieces and joined once, at the end, into a buffer of exactly the line's
// length. So a line costs what it holds, never the up to 3 times of a
// doubling buffer; a line longer than the lines before it costs twice its
// length while it is joined; and an endless line holds at most the bound.
func (lr *lineReader) assemble(first []byte) ([]byte, error) {
	long := lr.long[:0]
	if n := lr.measure(first); n > cap(long) {
		lr.long = nil
		long = make([]byte, 0, n)
	}
	var pieces [][]byte
	total := 0
	line, err := first, bufio.ErrBufferFull
	for err == bufio.ErrBufferFull {
		if hasNUL(line) {
			return nil, errNULLine
		}
		if pieces == nil && len(long)+len(line) <= cap(long) {
			long = append(long, line...)
		} else {
			pieces = append(pieces, bytes.Clone(line))
		}
		total += len(line)
		line, err = lr.r.ReadSlice('\n')
		if total+len(line) > lr.max+1 { // +1: the '\n'
			return nil, errLineTooLong
		}
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if pieces != nil || len(long)+len(line) > cap(long) {
		joined := make([]byte, 0, total+len(line))
		joined = append(joined, long...)
		lr.long = nil // the old buffer is garbage from here
		for i, p := range pieces {
			joined = append(joined, p...)
			pieces[i] = nil
		}
		long = joined
	}
	long = append(long, line...)
	lr.long = long
	if len(pieces) > 0 && total >= collectAfter {
		// The pieces are garbage, as large as the line: collect them
		// now, or the heap grows to twice what is live (GOGC) before
		// they go, and a huge line costs about four times its length.
		runtime.GC()
	}
	return long, err
}

// measure returns the length of the line that begins with first, its
// "\n" included, read from lr.at (0 when unknown): the line begins
// lr.read bytes into the stream, which is the file from its start, or
// from past a UTF-8 byte-order mark.
func (lr *lineReader) measure(first []byte) int {
	if lr.at == nil {
		return 0
	}
	for _, origin := range [...]int64{0, int64(len(utf8BOM))} {
		if n := RecordLength(lr.at, origin+lr.read, first, '\n', lr.max+1); n > 0 {
			return n
		}
	}
	return 0
}

// collectAfter is the length of a line past which assembling it from
// pieces is followed by a collection.
const collectAfter = 64 << 20

// isBlank reports whether line holds only white space.
func isBlank(line []byte) bool {
	return len(bytes.TrimSpace(line)) == 0
}

// lineParser turns one non-blank line into a document; src and n name it in
// errors as "src:n".
type lineParser func(src string, n int, line []byte) (Document, error)

// parserFor returns the parser of a line format: tsv, jsonl or fasttext
// (CSV has its own reader, see scanCSV).
func parserFor(format string, opts *Options) lineParser {
	switch format {
	case FormatJSONL:
		return jsonlParser(opts)
	case FormatFastText:
		return fastTextParser(opts)
	}
	return tsvParser(opts)
}

// decodeLine returns the line as text: UTF-8 when valid, else latin-1.
func decodeLine(line []byte) string {
	if utf8.Valid(line) {
		return string(line)
	}
	return latin1(line)
}

// lineText is decodeLine for a document's text: with shared
// (Options.Transient) a valid UTF-8 line is not copied, and the string is
// valid only as long as the line's bytes are.
func lineText(line []byte, shared bool) string {
	if shared && len(line) > 0 && utf8.Valid(line) {
		return unsafe.String(&line[0], len(line))
	}
	return decodeLine(line)
}

// lineID names line n of src ("src:n"), a document's ID and the place its
// errors name. With shared (Options.Transient) the name is built in *buf
// and valid only until the next call.
func lineID(buf *[]byte, src string, n int, shared bool) string {
	b := append((*buf)[:0], src...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(n), 10)
	*buf = b
	if shared {
		return unsafe.String(&b[0], len(b))
	}
	return string(b)
}

// tsvParser parses TSV lines. The first line is a header row when
// opts.Header says so or its fields name the label and text fields; then
// each line is read by the header's columns (the last column takes any
// further tabs). Without a header a line is "label<TAB>text": the text is
// everything after the first tab, further tabs included. A first line that
// names some of the fields but not all is an error, never a class.
func tsvParser(opts *Options) lineParser {
	spec := opts.fields()
	var cols *columns
	first := true
	var id []byte
	return func(src string, n int, line []byte) (Document, error) {
		if hasNUL(line) {
			return Document{}, fmt.Errorf("%s:%d: NUL byte in line", src, n)
		}
		shared := opts.shared && !first && cols == nil
		where := lineID(&id, src, n, shared)
		if first {
			first = false
			cells := headerCells(line)
			is, mentions := spec.isHeader(cells)
			switch {
			case opts.Header || is:
				if len(line) > maxHeaderBytes {
					cells = strings.Split(decodeLine(line), "\t")
				}
				c, err := spec.locate(where, cells)
				if err != nil {
					return Document{}, err
				}
				cols = c
				return Document{}, errHeader
			case mentions:
				return Document{}, fmt.Errorf("%s: the first row names some fields but not all of %s: pass --label-field and --text-field (or --header)", where, strings.Join(append([]string{spec.label}, spec.text...), ", "))
			case spec.explicit || len(spec.extra) > 0:
				return Document{}, fmt.Errorf("%s: no header row naming %s (pass --header if the first row is one)", where, strings.Join(append([]string{spec.label}, spec.text...), ", "))
			}
			shared = opts.shared // a first row of data
		}
		if cols != nil {
			cells := strings.SplitN(decodeLine(line), "\t", cols.n)
			if len(cells) < cols.n {
				return Document{}, fmt.Errorf("%s: %d fields, the header has %d", where, len(cells), cols.n)
			}
			return cols.record(opts, where, cells)
		}
		tab := bytes.IndexByte(line, '\t')
		if tab < 0 {
			return Document{}, fmt.Errorf("%s: missing tab between label and text", where)
		}
		d := Document{ID: where}
		var label string
		if utf8.Valid(line) {
			s := lineText(line, shared)
			label, d.Text = s[:tab], s[tab+1:]
		} else {
			label, d.Text = latin1(line[:tab]), latin1(line[tab+1:])
		}
		if err := opts.setLabels(&d, where, label); err != nil {
			return Document{}, err
		}
		return d, nil
	}
}

// maxHeaderBytes bounds the bytes of a first row that are looked at to
// tell whether it is a header row: a header names fields, in short cells.
const maxHeaderBytes = 64 << 10

// headerCells returns the decoded cells of a first TSV row, as far as
// they may name fields: of a row longer than maxHeaderBytes only the
// cells that end within them, so that a huge first row of data is not
// copied (issue 28, item 7).
func headerCells(line []byte) []string {
	if len(line) <= maxHeaderBytes {
		return strings.Split(decodeLine(line), "\t")
	}
	head := line[:maxHeaderBytes]
	end := bytes.LastIndexByte(head, '\t')
	if end < 0 {
		return nil
	}
	return strings.Split(decodeLine(head[:end]), "\t")
}

// errHeader is what a parser returns for a header row: no document.
var errHeader = errors.New("header row")

// fastTextParser parses fastText lines: "PREFIXlabel text", any number of
// labels first, each a word starting with the prefix, then the text.
func fastTextParser(opts *Options) lineParser {
	prefix := opts.prefix()
	var id []byte
	return func(src string, n int, line []byte) (Document, error) {
		if hasNUL(line) {
			return Document{}, fmt.Errorf("%s:%d: NUL byte in line", src, n)
		}
		where := lineID(&id, src, n, opts.shared)
		rest := lineText(line, opts.shared)
		var one [1]string
		labels := one[:0]
		for {
			rest = strings.TrimLeft(rest, " \t")
			if !strings.HasPrefix(rest, prefix) {
				break
			}
			end := strings.IndexAny(rest, " \t")
			if end < 0 {
				end = len(rest)
			}
			labels = append(labels, rest[len(prefix):end])
			rest = rest[end:]
		}
		if len(labels) == 0 {
			return Document{}, fmt.Errorf("%s: no label: want %sLABEL before the text (--label-prefix)", where, prefix)
		}
		d := Document{ID: where, Text: rest}
		if err := opts.setLabels(&d, where, labels...); err != nil {
			return Document{}, err
		}
		return d, nil
	}
}

// jsonlParser parses JSONL lines: one object per line whose label field is
// a string, number or boolean (numbers and booleans as their JSON text:
// 1, true) or an array of them (several labels), and whose text fields are
// strings. A line that is not valid UTF-8 is decoded as latin-1 first.
func jsonlParser(opts *Options) lineParser {
	spec := opts.fields()
	keys := append(append([]string{spec.label}, spec.text...), spec.extra...)
	vals := make([]flatValue, len(keys))
	var id, text []byte
	return func(src string, n int, line []byte) (Document, error) {
		where := lineID(&id, src, n, opts.shared)
		if hasNUL(line) {
			return Document{}, fmt.Errorf("%s: NUL byte in line", where)
		}
		if !utf8.Valid(line) {
			line = []byte(latin1(line))
		}
		if cap(text) > 1<<20 {
			text = nil // a huge text's room goes with it
		}
		if flatJSON(line, keys, vals) {
			if d, ok, err := flatDocument(where, spec, vals, opts, &text); ok {
				return d, err
			}
		}
		return decodeJSONL(where, line, spec, opts)
	}
}

// decodeJSONL is jsonlParser's document of the line (valid UTF-8, named
// where in errors) decoded by encoding/json.
func decodeJSONL(where string, line []byte, spec fieldSpec, opts *Options) (Document, error) {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(line, &rec); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Document{}, fmt.Errorf("%s: want a JSON object, got %s", where, te.Value)
		}
		return Document{}, fmt.Errorf("%s: invalid JSON: %w", where, err)
	}
	if rec == nil {
		return Document{}, fmt.Errorf("%s: want a JSON object, got null", where)
	}
	d := Document{ID: where}
	raw, ok := rec[spec.label]
	if !ok {
		return Document{}, fmt.Errorf("%s: missing %q", where, spec.label)
	}
	labels, err := jsonLabels(where, spec.label, raw)
	if err != nil {
		return Document{}, err
	}
	if err := opts.setLabels(&d, where, labels...); err != nil {
		return Document{}, err
	}
	for i, t := range spec.text {
		raw, ok := rec[t]
		if !ok {
			return Document{}, fmt.Errorf("%s: missing %q", where, t)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || raw[0] != '"' {
			return Document{}, fmt.Errorf("%s: %q must be a string, got %s", where, t, jsonKind(raw))
		}
		if strings.IndexByte(s, 0) >= 0 {
			return Document{}, fmt.Errorf("%s: NUL character in text", where)
		}
		if i > 0 {
			d.Text += "\n"
		}
		d.Text += s
	}
	for _, e := range spec.extra {
		raw, ok := rec[e]
		if !ok || string(raw) == "null" {
			continue
		}
		v := string(raw)
		if raw[0] == '"' {
			if err := json.Unmarshal(raw, &v); err != nil {
				return Document{}, fmt.Errorf("%s: %q: %w", where, e, err)
			}
		}
		if d.Fields == nil {
			d.Fields = make(map[string]string, len(spec.extra))
		}
		d.Fields[e] = v
	}
	return d, nil
}

// jsonLabels returns the labels of the JSON value raw: a string, the JSON
// text of a number or boolean, or the elements of an array of those.
func jsonLabels(where, field string, raw json.RawMessage) ([]string, error) {
	if raw[0] != '[' {
		l, err := jsonScalar(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %q must be a string, number or boolean (or an array of them), got %s", where, field, jsonKind(raw))
		}
		return []string{l}, nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, fmt.Errorf("%s: %q: %w", where, field, err)
	}
	if len(elems) == 0 {
		return nil, fmt.Errorf("%s: empty label", where)
	}
	labels := make([]string, len(elems))
	for i, e := range elems {
		l, err := jsonScalar(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: array elements must be strings, numbers or booleans, got %s", where, field, jsonKind(e))
		}
		labels[i] = l
	}
	return labels, nil
}

// jsonScalar returns a JSON string's value, or a number's or boolean's
// JSON text.
func jsonScalar(raw json.RawMessage) (string, error) {
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(raw), nil
	}
	return "", errors.New("not a scalar")
}

// jsonKind names the kind of a JSON value for messages.
func jsonKind(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 'n':
		return "null"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// scanLines calls fn with each document of a line-format stream (tsv,
// csv, jsonl or fasttext; gzip, zstd and bzip2 decompressed), blank lines
// skipped. want is the compression the name announces (codecNone: any).
func scanLines(src, format string, r io.Reader, want string, opts *Options, fn func(Document) error) error {
	s, stop, codec, progress, err := openSource(src, r, 0, opts)
	if err != nil {
		return err
	}
	defer stop()
	if err := checkCodec(src, want, codec); err != nil {
		return err
	}
	br := asBuffered(s)
	skipBOM(br)
	return scanRecords(src, format, br, opts, progress, fn)
}

// asBuffered returns r as a *bufio.Reader with room to sniff.
func asBuffered(r io.Reader) *bufio.Reader {
	if br, ok := r.(*bufio.Reader); ok && br.Size() >= sniffLen {
		return br
	}
	return bufio.NewReaderSize(r, 256<<10)
}

// scanRecords calls fn with each document of the decompressed stream br in
// format; progress, when set, is called every few MB and at the end with
// final set.
func scanRecords(src, format string, br *bufio.Reader, opts *Options, progress func(final bool), fn func(Document) error) error {
	if format == FormatCSV {
		return scanCSV(src, br, opts, progress, fn)
	}
	if len(opts.ExtraFields) > 0 && format == FormatFastText {
		return fmt.Errorf("%s: extra fields need named fields (csv, tsv with a header, jsonl), not %s", src, format)
	}
	parse := parserFor(format, opts)
	lr := newLineReader(br, opts.maxDoc())
	lr.at = opts.at
	reported := int64(0)
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return lineError(src, lr.n+1, err, opts.maxDoc())
		}
		if progress != nil && lr.read-reported >= 1<<20 {
			reported = lr.read
			progress(false)
		}
		if isBlank(line) {
			continue
		}
		d, err := parse(src, lr.n, line)
		if err == errHeader {
			continue
		}
		if err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	if progress != nil {
		progress(true)
	}
	return nil
}

// lineError words an error met reading line n of src.
func lineError(src string, n int, err error, max int) error {
	if errors.Is(err, errLineTooLong) {
		return tooLarge(fmt.Sprintf("%s:%d", src, n), max)
	}
	return fmt.Errorf("%s:%d: %w", src, n, err)
}
