package corpus

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// scanCSV calls fn with each record of a CSV stream (RFC 4180: quoted
// fields may hold commas, quotes and line breaks), read with encoding/csv.
// The first record is the header row; every record must have as many
// fields. A record is bounded by opts.MaxDocBytes and may hold no NUL
// byte; both are checked as the bytes arrive, so an endless record fails
// fast. Document IDs are "src:LINE", LINE the record's first line.
func scanCSV(src string, r io.Reader, opts *Options, progress func(final bool), fn func(Document) error) error {
	g := &csvGuard{r: r, max: int64(opts.maxDoc()) + 64<<10}
	cr := csv.NewReader(g)
	cr.ReuseRecord = true
	spec := opts.fields()
	var cols *columns
	nextLine := 1 // first line of the next record, for errors csv does not place
	reported := int64(0)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvError(src, nextLine, err, opts.maxDoc())
		}
		line, _ := cr.FieldPos(0)
		where := fmt.Sprintf("%s:%d", src, line)
		last := rec[len(rec)-1]
		lastLine, _ := cr.FieldPos(len(rec) - 1)
		nextLine = lastLine + strings.Count(last, "\n") + 1
		end := cr.InputOffset()
		if end-g.mark > int64(opts.maxDoc()) {
			return tooLarge(where, opts.maxDoc())
		}
		g.mark = end
		for i, f := range rec {
			if !utf8.ValidString(f) {
				rec[i] = latin1([]byte(f))
			}
		}
		if cols == nil {
			if cols, err = spec.locate(where, rec); err != nil {
				return fmt.Errorf("%w (a CSV file needs a header row)", err)
			}
			continue
		}
		d, err := cols.record(opts, where, rec)
		if err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
		if progress != nil && g.n-reported >= 1<<20 {
			reported = g.n
			progress(false)
		}
	}
	if cols == nil {
		return fmt.Errorf("%s: no header row", src)
	}
	if progress != nil {
		progress(true)
	}
	return nil
}

// csvError words an error of encoding/csv, or of the guard below it, met
// in the record starting at line n.
func csvError(src string, n int, err error, max int) error {
	var pe *csv.ParseError
	var ne *nulError
	switch {
	case errors.Is(err, errLineTooLong):
		return tooLarge(fmt.Sprintf("%s:%d", src, n), max)
	case errors.As(err, &ne):
		return fmt.Errorf("%s:%d: NUL byte in record", src, ne.line)
	case errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount):
		return fmt.Errorf("%s:%d: wrong number of fields: every record needs as many as the header row", src, pe.StartLine)
	case errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine != pe.Line:
		return fmt.Errorf("%s:%d: %w: the quoted field of the record opened on line %d is still open on line %d", src, pe.StartLine, pe.Err, pe.StartLine, pe.Line)
	case errors.As(err, &pe):
		return fmt.Errorf("%s:%d: %w", src, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s:%d: %w", src, n, err)
}

// csvGuard passes the bytes of r to encoding/csv, failing with
// errLineTooLong once more than max bytes are read past mark (the end of
// the last record; encoding/csv buffers 4 KiB ahead, within the slack of
// max) and with a *nulError at a NUL byte.
type csvGuard struct {
	r     io.Reader
	n     int64 // bytes read
	lines int   // line breaks read
	mark  int64
	max   int64
}

func (g *csvGuard) Read(p []byte) (int, error) {
	if g.n-g.mark > g.max {
		return 0, errLineTooLong
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	if i := bytes.IndexByte(p[:n], 0); i >= 0 {
		return 0, &nulError{line: g.lines + bytes.Count(p[:i], []byte{'\n'}) + 1}
	}
	g.lines += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

// nulError is a NUL byte in a CSV stream, on line line.
type nulError struct{ line int }

func (e *nulError) Error() string { return "NUL byte" }
