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
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/nbtext/nbtext/internal/corpus"
)

// record is one framed document. Its text is either text (files, JSONL,
// doc, records longer than the read buffer) or, when raw is set, the
// undecoded bytes arena[lo:hi] of its batch (lines, nul), which the worker
// decodes: the reader goroutine only copies bytes, and a batch of short
// lines costs no allocation per line.
type record struct {
	id     string // the id, except for raw records, whose id is src then n
	src    string // raw records: the id prefix of their source ("" for stdin, "NAME:" for a file)
	n      int    // line (lines, jsonl) or record (nul) number, from 1
	text   string
	raw    bool
	lo, hi int
	extra  []field // JSONL, CSV, TSV: the input's other fields, passed through in order
	// oneLine marks a document that is one line of its input (lines,
	// fasttext): it has no mail header to strip.
	oneLine bool
	// empty is set by the worker for a document with no term of the
	// model's vocabulary.
	empty bool
	// fail, when set, says why the document could not be read (too large,
	// NUL bytes): it is answered with "?" and the message is a warning.
	fail string
}

// field is a JSON member passed through from the input.
type field struct {
	key string
	raw json.RawMessage
}

// framer cuts a stream into records.
type framer struct {
	br     *bufio.Reader
	name   string
	prefix string // of the ids of numbered records: "" for stdin, "NAME:" for a file
	input  string
	max    int
	// skipMax bounds the bytes skipped after the first max bytes of an
	// oversized record while looking for its end (skipBytes); past it the
	// stream is not text (cat /dev/zero) and framing stops with fatal.
	skipMax int64
	fatal   error
	line    int // records read so far (line number for lines/jsonl)
	done    bool
	buf     []byte // assembles records longer than br's buffer
	// wait, when set, is called before any read that may block, that is
	// when br holds no complete record: the pipeline then sends the
	// records it holds, so that a slow producer gets its answers at once.
	wait func() error
	// room, when set, is called with the length a record has grown to,
	// past readerSize, before each further read: the pipeline waits there
	// until the record fits in its byte budget beside the batches in
	// flight (batcher.room).
	room func(n int64) error
	// at, when set, is the file br reads from its start (uncompressed
	// when its bytes match): a record that outgrows br's buffer is
	// measured there first (corpus.RecordLength) and assembled in a
	// buffer of exactly its length. off counts the bytes read out of br
	// by readRecord and drain, where the next record begins in at.
	at  io.ReaderAt
	off int64
	// fields name the columns or keys of record inputs.
	fields Fields
	// cols are the columns of the header row of a csv or tsv file.
	cols *rowColumns
	// cr and guard read a csv file.
	cr    *csv.Reader
	guard *rowGuard
	// labelled says what labels the input has ("" none yet); onLabels,
	// when set, is told the first time.
	labelled string
	onLabels func(name, what string)
}

// readerSize is the framer's read buffer. Records that fit in it are
// copied once, from it into their batch.
const readerSize = 1 << 16

// maxScratch is the largest buffer a framer or a pooled batch keeps
// between records: one huge document must not pin its memory for the rest
// of the stream.
const maxScratch = 4 << 20

// skipBytes is how far an oversized record may go on past the bound
// before the framer gives up on finding its end: 64 MiB, a fraction of a
// second to skip.
const skipBytes = 64 << 20

func newFramer(r io.Reader, name, input string, max int) *framer {
	f := &framer{br: bufio.NewReaderSize(r, readerSize), name: name, input: input, max: max, skipMax: skipBytes}
	f.fields.normalize()
	return f
}

// errOversized is readRecord's report of a record larger than max, whose
// rest it skipped.
var errOversized = errors.New("oversized record")

// id returns the id of record n of a non-raw record.
func (f *framer) id(n int) string { return f.prefix + strconv.Itoa(n) }

// next returns the next record, or io.EOF. For a raw record (lines, nul)
// it also returns its bytes, which alias the framer's buffers until the
// next call.
func (f *framer) next() (record, []byte, error) {
	if f.fatal != nil {
		err := f.fatal
		f.fatal, f.done = nil, true
		return record{}, nil, err
	}
	if f.done {
		return record{}, nil, io.EOF
	}
	if f.input == InputCSV {
		r, err := f.nextCSV()
		if err != nil {
			f.done = true
		}
		return r, nil, err
	}
	if f.input == InputDoc {
		f.done = true
		b, err := io.ReadAll(io.LimitReader(f.br, int64(f.max)+1))
		if err != nil {
			return record{}, nil, fmt.Errorf("%s: %w", f.name, err)
		}
		f.line = 1
		if len(b) > f.max {
			return record{id: f.name, n: 1, fail: errTooLarge(f.name, 0, f.max).Error()}, nil, nil
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return record{id: f.name, n: 1, fail: errNotText(f.name, 0).Error()}, nil, nil
		}
		return record{id: f.name, n: 1, text: decodeInPlace(b)}, nil, nil
	}
	sep := byte('\n')
	if f.input == InputNUL {
		sep = 0
	}
	for {
		b, err := f.readRecord(sep)
		if err == errOversized {
			f.line++
			return record{id: f.id(f.line), n: f.line, fail: errTooLarge(f.name, f.line, f.max).Error()}, nil, nil
		}
		if err == io.EOF && b == nil {
			f.done = true
			return record{}, nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return record{}, nil, err
		}
		f.line++
		if err == io.EOF {
			f.done = true
		}
		switch f.input {
		case InputJSONL:
			if len(bytes.TrimSpace(b)) == 0 {
				if f.done {
					return record{}, nil, io.EOF
				}
				continue // blank lines separate nothing
			}
			r, err := f.parseJSON(b)
			if err != nil {
				// One malformed record fails alone: a tail -f pipeline
				// goes on with the next line.
				return record{id: f.id(f.line), n: f.line, fail: err.Error()}, nil, nil
			}
			return r, nil, nil
		case InputFastText:
			if len(bytes.TrimSpace(b)) == 0 && f.done {
				return record{}, nil, io.EOF
			}
			return f.parseFastText(b), nil, nil
		case InputTSV:
			if len(bytes.TrimSpace(b)) == 0 {
				if f.done {
					return record{}, nil, io.EOF
				}
				continue
			}
			r, err := f.parseTSV(b)
			if err == errHeader {
				continue
			}
			return r, nil, err
		case InputLines:
			b = bytes.TrimSuffix(b, []byte{'\r'})
			if bytes.IndexByte(b, 0) >= 0 {
				return record{id: f.id(f.line), n: f.line, fail: errNotText(f.name, f.line).Error()}, nil, nil
			}
		}
		if len(f.buf) > readerSize {
			// A long record assembled in f.buf: hand the buffer over
			// rather than copy it into the batch.
			f.buf = nil
			return record{id: f.id(f.line), n: f.line, text: decodeInPlace(b), oneLine: f.input == InputLines}, nil, nil
		}
		return record{src: f.prefix, n: f.line, raw: true, oneLine: f.input == InputLines}, b, nil
	}
}

// readRecord reads up to sep (dropped). It returns (nil, io.EOF) at the end
// of input and (b, io.EOF) for a last record without a separator. For a
// record longer than f.max it returns errOversized after skipping the rest
// of it, at most f.skipMax bytes: when the record goes on past that, it
// sets f.fatal and the stream ends after this record.
//
// A record longer than the reader's buffer is assembled in f.buf. Read
// from a file (f.at), it is measured first and f.buf made exactly its
// length. Otherwise f.buf grows by doubling up to maxScratch; past that
// the chunks are kept as pieces and joined once, at the end, into a
// buffer of exactly the record's length, so a huge record costs twice its
// length while it is joined and its length after, never the up to three
// times of a doubling buffer. Past readerSize, f.room (when set) is told how long the record
// has grown before each further read.
func (f *framer) readRecord(sep byte) ([]byte, error) {
	if cap(f.buf) > maxScratch {
		f.buf = nil
	}
	f.buf = f.buf[:0]
	var pieces [][]byte // the chunks past maxScratch
	total := 0          // the bytes of the record read so far
	start := f.off
	for {
		if f.wait != nil && !f.complete(sep) {
			if err := f.wait(); err != nil {
				return nil, err
			}
		}
		chunk, err := f.br.ReadSlice(sep)
		f.off += int64(len(chunk))
		n := total + len(chunk)
		if err == nil {
			n-- // the separator
		}
		if n > f.max {
			switch {
			case errors.Is(err, bufio.ErrBufferFull):
				if err := f.drain(sep); err != nil {
					f.fatal = err
				}
			case err != nil && err != io.EOF:
				f.fatal = fmt.Errorf("%s: %w", f.name, err)
			}
			return nil, errOversized
		}
		switch {
		case err == nil:
			if total == 0 {
				return chunk[:len(chunk)-1], nil // aliases the reader's buffer until the next read
			}
			return f.join(pieces, chunk[:len(chunk)-1]), nil
		case errors.Is(err, bufio.ErrBufferFull):
			if total == 0 && f.at != nil {
				if want := corpus.RecordLength(f.at, start, chunk, sep, f.max+1); want > maxScratch {
					if f.room != nil { // before the buffer is made
						if err := f.room(int64(want)); err != nil {
							return nil, err
						}
					}
					f.buf = make([]byte, 0, want)
				}
			}
			total += len(chunk)
			if pieces == nil && (total <= maxScratch || total <= cap(f.buf)) {
				f.appendBuf(chunk)
			} else {
				pieces = append(pieces, bytes.Clone(chunk))
			}
			if f.room != nil && total > readerSize {
				if err := f.room(int64(total)); err != nil {
					return nil, err
				}
			}
		case err == io.EOF:
			if total == 0 && len(chunk) == 0 {
				return nil, io.EOF
			}
			return f.join(pieces, chunk), io.EOF
		default:
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
	}
}

// join returns the record assembled in f.buf and pieces, with last
// after them, as f.buf: without pieces, f.buf itself; with them, a new
// buffer of exactly the record's length.
func (f *framer) join(pieces [][]byte, last []byte) []byte {
	if pieces == nil {
		f.appendBuf(last)
		return f.buf
	}
	n := len(f.buf) + len(last)
	for _, p := range pieces {
		n += len(p)
	}
	b := make([]byte, 0, n)
	b = append(b, f.buf...)
	for i, p := range pieces {
		b = append(b, p...)
		pieces[i] = nil
	}
	b = append(b, last...)
	f.buf = b
	return b
}

// appendBuf appends b to f.buf, which never needs more than f.max bytes
// (readRecord checks the length first): growth stops at f.max.
func (f *framer) appendBuf(b []byte) {
	need := len(f.buf) + len(b)
	if need > cap(f.buf) {
		c := min(max(2*cap(f.buf), need, readerSize), max(f.max, need))
		nb := make([]byte, len(f.buf), c)
		copy(nb, f.buf)
		f.buf = nb
	}
	f.buf = append(f.buf, b...)
}

// complete reports whether the reader's buffer holds a whole record, so
// that the next ReadSlice cannot block.
func (f *framer) complete(sep byte) bool {
	n := f.br.Buffered()
	if n == 0 {
		return false
	}
	b, _ := f.br.Peek(n)
	return bytes.IndexByte(b, sep) >= 0
}

// drain skips the rest of an oversized record, at most f.skipMax bytes. It
// returns the error that ends the stream when the record goes on past that
// (a stream that is not text, such as /dev/zero, may never end it) or
// reading fails.
func (f *framer) drain(sep byte) error {
	var skipped int64
	for {
		chunk, err := f.br.ReadSlice(sep)
		f.off += int64(len(chunk))
		skipped += int64(len(chunk))
		switch {
		case err == nil || err == io.EOF:
			return nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return fmt.Errorf("%s: %w", f.name, err)
		case skipped > f.skipMax:
			return fmt.Errorf("%s:%d: no end of the document within %d MiB past --max-doc-bytes: stopping (is the input text?)", f.name, f.line+1, f.skipMax>>20)
		}
	}
}

// errTooLarge is the error for the document at line (0: the whole stream)
// of name.
func errTooLarge(name string, line, max int) error {
	if line == 0 {
		return fmt.Errorf("%s: document larger than %d bytes (raise --max-doc-bytes)", name, max)
	}
	return fmt.Errorf("%s:%d: document larger than %d bytes (raise --max-doc-bytes)", name, line, max)
}

// errNotText reports a document with NUL bytes (binary data, or a file in
// UTF-16), at line of name (0: the whole of it).
func errNotText(name string, line int) error {
	if line == 0 {
		return fmt.Errorf("%s: contains NUL bytes: not text", name)
	}
	return fmt.Errorf("%s:%d: contains NUL bytes: not text", name, line)
}

// decodeInPlace is corpus.Decode without the copy: valid UTF-8 becomes a
// string that aliases b, so b must not change while the string is in use
// (a document read whole, or a raw record in a batch being scored);
// anything else is read as latin-1 into a new string.
func decodeInPlace(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if utf8.Valid(b) {
		return unsafe.String(&b[0], len(b))
	}
	return corpus.Decode(b)
}

// parseJSON decodes one JSONL object: the text keys (Fields.Text, default
// "text") are required (strings; several are joined with a newline), the
// id key (Fields.ID, default "id") is optional (any JSON value; strings
// are used as they are; null or absent means the line number), every
// other field is passed through; the label key (Fields.Label) marks the
// input as labelled. A line that is not valid UTF-8 is read
// as latin-1 first, as corpus reads JSONL.
func (f *framer) parseJSON(b []byte) (record, error) {
	return parseJSONRecord(b, f.name, f.line, f.id(f.line), f.fields, f.noteLabels)
}

// parseJSONRecord is parseJSON for the object b at line of name, whose id
// is id unless it has one, with the keys of fields (normalized); onLabel,
// when not nil, is told of a label key.
func parseJSONRecord(b []byte, name string, line int, id string, fields Fields, onLabel func(string)) (record, error) {
	if !utf8.Valid(b) {
		b = []byte(corpus.Decode(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return record{}, fmt.Errorf("%s:%d: invalid JSON: want an object like {\"text\": \"...\"}", name, line)
	}
	r := record{id: id, n: line}
	texts := make([]string, len(fields.Text))
	have := 0
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return record{}, fmt.Errorf("%s:%d: invalid JSON: %v", name, line, err)
		}
		key, _ := kt.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return record{}, fmt.Errorf("%s:%d: invalid JSON: %v", name, line, err)
		}
		if key == fields.Label && onLabel != nil {
			onLabel(fmt.Sprintf("key %q", key))
		}
		if i := slices.Index(fields.Text, key); i >= 0 {
			var s string
			if !isJSONString(raw) || json.Unmarshal(raw, &s) != nil {
				return record{}, fmt.Errorf("%s:%d: %q must be a string, got %s", name, line, key, clip(raw))
			}
			texts[i] = s
			have++
			continue
		}
		switch key {
		case fields.ID:
			switch {
			case bytes.Equal(bytes.TrimSpace(raw), []byte("null")):
				continue // no id: the line number stands in
			case isJSONString(raw):
				var s string
				if err := json.Unmarshal(raw, &s); err != nil {
					return record{}, fmt.Errorf("%s:%d: invalid JSON: %v", name, line, err)
				}
				r.id = s
			default:
				r.id = string(raw)
			}
			r.extra = append(r.extra, field{key, raw})
		default:
			r.extra = append(r.extra, field{key, raw})
		}
	}
	if _, err := dec.Token(); err != nil {
		return record{}, fmt.Errorf("%s:%d: invalid JSON: %v", name, line, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return record{}, fmt.Errorf("%s:%d: invalid JSON: data after the object", name, line)
	}
	if have < len(texts) {
		return record{}, fmt.Errorf("%s:%d: missing %q field (--text-field)", name, line, strings.Join(fields.Text, ", "))
	}
	r.text = strings.Join(texts, "\n")
	return r, nil
}

// isJSONString reports whether raw is a JSON string (not null).
func isJSONString(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

// clip shortens a JSON value for an error message.
func clip(raw []byte) string {
	const n = 40
	if len(raw) <= n {
		return string(raw)
	}
	return string(raw[:n]) + "..."
}
