package predict

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nbtext/nbtext/internal/corpus"
)

// Fields name the columns (csv, tsv with a header row) or keys (jsonl) of
// a record file that predict reads, as 'nbtext train' names them.
type Fields struct {
	// Text are the text columns, joined with a newline (default "text").
	Text []string
	// ID is the column whose value is a record's id (default "id"; a
	// record without it gets its line number).
	ID string
	// Label is the label column of a labelled file (default "label"): its
	// values are never read as text, and Stats.Labelled names the file.
	Label string
	// LabelPrefix marks the labels of fastText lines (default
	// corpus.DefaultLabelPrefix), which are dropped from the text.
	LabelPrefix string
}

func (f *Fields) normalize() {
	if len(f.Text) == 0 {
		f.Text = []string{"text"}
	}
	if f.ID == "" {
		f.ID = "id"
	}
	if f.Label == "" {
		f.Label = "label"
	}
	if f.LabelPrefix == "" {
		f.LabelPrefix = corpus.DefaultLabelPrefix
	}
}

// resolveInput returns the framing of the source name for InputAuto: by
// the file's name (csv, tsv, jsonl, also compressed), else fastText when
// its first line starts with the label prefix, else lines. Standard input
// is read as lines, answered as they arrive.
func resolveInput(br *bufio.Reader, name string, stdin bool, prefix string) string {
	if stdin {
		return InputLines
	}
	switch corpus.FormatByName(name) {
	case corpus.FormatCSV:
		return InputCSV
	case corpus.FormatTSV:
		return InputTSV
	case corpus.FormatJSONL:
		return InputJSONL
	}
	head, _ := br.Peek(4096)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if bytes.HasPrefix(bytes.TrimLeft(head, " \t"), []byte(prefix)) {
		return InputFastText
	}
	return InputLines
}

// noteLabels records that the source holds labels (what: the column, key
// or prefix), once per source.
func (f *framer) noteLabels(what string) {
	if f.labelled == "" {
		f.labelled = what
		if f.onLabels != nil {
			f.onLabels(f.name, what)
		}
	}
}

// parseFastText reads a fastText line: the leading words that start with
// the label prefix are labels, dropped; the rest is the text.
func (f *framer) parseFastText(b []byte) record {
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if bytes.IndexByte(b, 0) >= 0 {
		return record{id: f.id(f.line), n: f.line, oneLine: true, fail: errNotText(f.name, f.line).Error()}
	}
	s := decodeInPlace(b)
	rest := strings.TrimLeft(s, " \t")
	for strings.HasPrefix(rest, f.fields.LabelPrefix) {
		f.noteLabels("labels " + f.fields.LabelPrefix + "...")
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			rest = ""
			break
		}
		rest = strings.TrimLeft(rest[i:], " \t")
	}
	return record{id: f.id(f.line), n: f.line, oneLine: true, text: strings.Clone(rest)}
}

// columnsOf locates the fields in a header row. text is nil when the
// header names none of the text columns.
type rowColumns struct {
	names []string
	text  []int
	id    int // -1: none
	label int // -1: none
}

func (f *framer) locate(header []string) (*rowColumns, error) {
	c := &rowColumns{names: make([]string, len(header)), id: -1, label: -1}
	for i, h := range header {
		c.names[i] = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
	}
	for _, t := range f.fields.Text {
		i := slices.Index(c.names, t)
		if i < 0 {
			return nil, fmt.Errorf("%s:1: the header has no column %q (--text-field; columns: %s)", f.name, t, strings.Join(c.names, ", "))
		}
		c.text = append(c.text, i)
	}
	c.id = slices.Index(c.names, f.fields.ID)
	c.label = slices.Index(c.names, f.fields.Label)
	if c.label >= 0 {
		f.noteLabels("column " + fmt.Sprintf("%q", f.fields.Label))
	}
	return c, nil
}

// row turns the cells of a record into a record: its text columns joined,
// its id, and every other column but the label passed through (as JSON
// strings) for the JSON output and a model's record fields.
func (f *framer) row(c *rowColumns, cells []string, line int) (record, error) {
	if len(cells) != len(c.names) {
		return record{}, fmt.Errorf("%s:%d: %d fields, the header has %d", f.name, line, len(cells), len(c.names))
	}
	r := record{id: f.id(line), n: line}
	parts := make([]string, len(c.text))
	for i, t := range c.text {
		parts[i] = cells[t]
	}
	r.text = strings.Join(parts, "\n")
	if c.id >= 0 {
		r.id = cells[c.id]
	}
	for i, v := range cells {
		if i == c.label || slices.Contains(c.text, i) {
			continue
		}
		raw, _ := json.Marshal(v)
		r.extra = append(r.extra, field{c.names[i], raw})
	}
	return r, nil
}

// parseTSV reads a TSV line: the first is a header row when it names the
// text column; without one, a line is label<TAB>text (as train reads it)
// or the text alone.
func (f *framer) parseTSV(b []byte) (record, error) {
	b = bytes.TrimSuffix(b, []byte{'\r'})
	if bytes.IndexByte(b, 0) >= 0 {
		return record{id: f.id(f.line), n: f.line, fail: errNotText(f.name, f.line).Error()}, nil
	}
	cells := strings.Split(decodeInPlace(b), "\t")
	for i := range cells {
		cells[i] = strings.Clone(cells[i])
	}
	if f.line == 1 {
		if c, err := f.locate(cells); err == nil {
			f.cols = c
			return record{}, errHeader
		}
		if len(cells) > 2 {
			return record{}, fmt.Errorf("%s:1: %d fields and no header row naming the text column %q (--text-field): a TSV file without one holds label<TAB>text or text lines", f.name, len(cells), f.fields.Text[0])
		}
	}
	if f.cols != nil {
		return f.row(f.cols, cells, f.line)
	}
	switch len(cells) {
	case 1:
		return record{id: f.id(f.line), n: f.line, text: cells[0]}, nil
	case 2:
		f.noteLabels("label<TAB>text rows")
		return record{id: f.id(f.line), n: f.line, text: cells[1]}, nil
	}
	return record{}, fmt.Errorf("%s:%d: %d fields: want label<TAB>text", f.name, f.line, len(cells))
}

// errHeader is parseTSV's word that the line was the header row.
var errHeader = errors.New("header row")

// nextCSV returns the next CSV record (RFC 4180; the first is the header
// row), each bounded by f.max.
func (f *framer) nextCSV() (record, error) {
	if f.cr == nil {
		f.guard = &rowGuard{r: f.br, max: int64(f.max) + 64<<10}
		f.cr = csv.NewReader(f.guard)
		f.cr.ReuseRecord = true
		f.cr.FieldsPerRecord = -1
	}
	for {
		cells, err := f.cr.Read()
		if err == io.EOF {
			if f.cols == nil && f.line == 0 {
				return record{}, io.EOF
			}
			return record{}, io.EOF
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.Is(err, errRowTooLong) {
				return record{}, errTooLarge(f.name, f.line+1, f.max)
			}
			if errors.As(err, &pe) {
				return record{}, fmt.Errorf("%s:%d: %w", f.name, pe.Line, pe.Err)
			}
			return record{}, fmt.Errorf("%s: %w", f.name, err)
		}
		f.guard.mark = f.cr.InputOffset()
		line, _ := f.cr.FieldPos(0)
		f.line = line
		for i, c := range cells {
			if strings.IndexByte(c, 0) >= 0 {
				return record{id: f.id(line), n: line, fail: errNotText(f.name, line).Error()}, nil
			}
			if !utf8.ValidString(c) {
				cells[i] = corpus.Decode([]byte(c))
			} else {
				cells[i] = strings.Clone(c)
			}
		}
		if f.cols == nil {
			c, err := f.locate(cells)
			if err != nil {
				return record{}, fmt.Errorf("%w (a CSV file needs a header row)", err)
			}
			f.cols = c
			continue
		}
		return f.row(f.cols, cells, line)
	}
}

// rowGuard passes bytes to encoding/csv and fails with errRowTooLong once
// more than max bytes are read past mark (the end of the last record), so
// an endless record fails fast instead of filling memory.
type rowGuard struct {
	r    io.Reader
	n    int64
	mark int64
	max  int64
}

var errRowTooLong = errors.New("record too long")

func (g *rowGuard) Read(p []byte) (int, error) {
	if g.n-g.mark > g.max {
		return 0, errRowTooLong
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}
