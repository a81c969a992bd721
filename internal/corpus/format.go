package corpus

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Formats Read and Walk accept in Options.Format; "" means FormatAuto.
const (
	FormatAuto     = "auto"
	FormatDir      = "dir"
	FormatTar      = "tar"
	FormatTSV      = "tsv"
	FormatCSV      = "csv"
	FormatJSONL    = "jsonl"
	FormatFastText = "fasttext"
)

// Formats lists the values of Options.Format, FormatAuto first.
var Formats = []string{FormatAuto, FormatDir, FormatTar, FormatTSV, FormatCSV, FormatJSONL, FormatFastText}

// compressedSuffixes are the name endings of the compressions Decompress
// reads; a name is judged without them ("x.tsv.gz" is TSV).
var compressedSuffixes = []string{".gz", ".zst", ".zstd", ".bz2"}

// formatByName returns the format a file name implies, or "" when the name
// does not tell (".txt" and unknown endings: the content decides).
func formatByName(name string) string {
	n := strings.ToLower(name)
	if strings.HasSuffix(n, ".tgz") || strings.HasSuffix(n, ".tbz2") {
		return FormatTar
	}
	for _, s := range compressedSuffixes {
		if strings.HasSuffix(n, s) {
			n = n[:len(n)-len(s)]
			break
		}
	}
	switch {
	case strings.HasSuffix(n, ".tar"):
		return FormatTar
	case strings.HasSuffix(n, ".tsv"), strings.HasSuffix(n, ".tab"):
		return FormatTSV
	case strings.HasSuffix(n, ".csv"):
		return FormatCSV
	case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".ndjson"):
		return FormatJSONL
	}
	return ""
}

// FormatByName returns the format a file name implies (FormatTSV,
// FormatCSV, FormatJSONL, FormatTar; compressed names too), or "" when the
// name does not tell.
func FormatByName(name string) string { return formatByName(name) }

// isTxtName reports whether name ends in ".txt" (compressed or not): such a
// file whose first line shows no format is read as TSV, as before formats
// were sniffed.
func isTxtName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range compressedSuffixes {
		n = strings.TrimSuffix(n, s)
	}
	return strings.HasSuffix(n, ".txt")
}

// checkFormat validates a forced format.
func checkFormat(f string) error {
	if f == "" {
		return nil
	}
	for _, g := range Formats {
		if f == g {
			return nil
		}
	}
	return fmt.Errorf("unknown input format %q (want %s)", f, strings.Join(Formats, ", "))
}

// streamFormat returns the format a stream named name is read in: forced
// (checked), or "" (FormatAuto) for its first bytes to tell; a stream
// cannot be a folder.
func streamFormat(name, forced string) (string, error) {
	if err := checkFormat(forced); err != nil {
		return "", err
	}
	switch forced {
	case FormatAuto:
		return "", nil
	case FormatDir:
		return "", fmt.Errorf("%s: a stream cannot be read as a folder", name)
	}
	return forced, nil
}

// isLineFormat reports whether records of format f are lines or rows of
// one file (every format but dir and tar).
func isLineFormat(f string) bool {
	return f == FormatTSV || f == FormatCSV || f == FormatJSONL || f == FormatFastText
}

// sourceFormat decides the format of the source at p from opts.Format and
// the name: a folder is "dir", a file goes by its name. It returns "" for a
// file whose content must decide (see sniffFormat).
func sourceFormat(p string, isDir bool, forced string) (string, error) {
	if err := checkFormat(forced); err != nil {
		return "", err
	}
	switch {
	case forced == FormatDir && !isDir:
		return "", fmt.Errorf("%s: not a folder (input format dir)", p)
	case forced != "" && forced != FormatAuto && forced != FormatDir && isDir:
		return "", fmt.Errorf("%s: is a folder, not a %s file", p, forced)
	case forced != "" && forced != FormatAuto:
		return forced, nil
	case isDir:
		return FormatDir, nil
	}
	return formatByName(p), nil
}

// sniffLen is how many bytes of a stream sniffFormat looks at.
const sniffLen = 64 << 10

// sniffFormat guesses the format of a decompressed stream from its first
// bytes: a tar header ("ustar" at offset 257), else by its first non-blank
// line: "{" starts JSONL, the label prefix fastText, a tab TSV, a comma
// CSV. It returns "" when none fits.
func sniffFormat(head []byte, prefix string) string {
	if len(head) >= 262 && string(head[257:262]) == "ustar" {
		return FormatTar
	}
	line := head
	for len(line) > 0 {
		i := bytes.IndexByte(line, '\n')
		first := line
		if i >= 0 {
			first, line = line[:i], line[i+1:]
		} else {
			line = nil
		}
		if isBlank(first) {
			continue
		}
		t := bytes.TrimLeft(first, " \t\r")
		switch {
		case hasNUL(first):
			return ""
		case t[0] == '{':
			return FormatJSONL
		case bytes.HasPrefix(t, []byte(prefix)):
			return FormatFastText
		case bytes.IndexByte(first, '\t') >= 0:
			return FormatTSV
		case bytes.IndexByte(first, ',') >= 0:
			return FormatCSV
		}
		return ""
	}
	return ""
}

// Compressions a stream may have, found by magic bytes.
const (
	codecNone  = ""
	codecGzip  = "gzip"
	codecZstd  = "zstd"
	codecBzip2 = "bzip2"
)

// codecOf returns the compression whose magic bytes start b.
func codecOf(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		return codecGzip
	case len(b) >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd:
		return codecZstd
	case len(b) >= 4 && b[0] == 'B' && b[1] == 'Z' && b[2] == 'h' && b[3] >= '1' && b[3] <= '9':
		return codecBzip2
	}
	return codecNone
}

// magics are the leading bytes of gzip, zstd and bzip2 streams (bzip2's
// fourth byte, the block size digit, is checked by codecOf).
var magics = []string{"\x1f\x8b", "\x28\xb5\x2f\xfd", "BZh"}

// peekMagic returns the first bytes of br, up to 4, reading past the first
// byte only while what it has could still start a compressed stream: a
// stream of short lines that begins "hi\n" is never held back waiting for
// a fourth byte (predict answers each line as it arrives).
func peekMagic(br *bufio.Reader) ([]byte, error) {
	for n := 1; n < 4; n++ {
		b, err := br.Peek(n)
		if err != nil || codecOf(b) != codecNone || !magicPrefix(b) {
			return b, err
		}
	}
	return br.Peek(4)
}

// magicPrefix reports whether b starts, or is the start of, a magic.
func magicPrefix(b []byte) bool {
	for _, m := range magics {
		k := min(len(b), len(m))
		if string(b[:k]) == m[:k] {
			return true
		}
	}
	return false
}

// decompress returns the content of r: decompressed, on its own goroutine
// so that it overlaps with parsing, when r starts with the magic bytes of
// gzip, zstd or bzip2, else r itself (buffered). The returned stop ends the
// decompressor; call it once done with the stream. codec names what was
// found. Errors name src.
func decompress(src string, r io.Reader) (s io.Reader, stop func(), codec string, err error) {
	br := bufio.NewReaderSize(r, 256<<10)
	magic, err := peekMagic(br)
	if err != nil && err != io.EOF {
		return nil, nil, "", pathError(src, err)
	}
	codec = codecOf(magic)
	var d io.Reader
	closeDec := func() {}
	switch codec {
	case codecNone:
		return br, func() {}, codec, nil
	case codecGzip:
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, codec, fmt.Errorf("%s: corrupt gzip stream: %w", src, err)
		}
		d = gz
	case codecZstd:
		zd, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<29))
		if err != nil {
			return nil, nil, codec, fmt.Errorf("%s: corrupt zstd stream: %w", src, err)
		}
		d, closeDec = zd, zd.Close
	case codecBzip2:
		d = bzip2.NewReader(br)
	}
	a := newAsyncReader(truncReader{d, codec}, 256<<10, 6)
	return a, func() { a.Close(); closeDec() }, codec, nil
}

// truncReader says which compressed stream ended early: a decompressor
// reports only io.ErrUnexpectedEOF.
type truncReader struct {
	r     io.Reader
	codec string
}

func (t truncReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%s stream cut short: %w", t.codec, err)
	}
	return n, err
}

// Decompress returns the content of r, decompressed when r starts with the
// magic bytes of gzip, zstd or bzip2 (also concatenated gzip members), else
// r's bytes unchanged. Decompression runs ahead on its own goroutine; Close
// stops it (it does not close r). A damaged stream shows as an error from
// Read.
func Decompress(r io.Reader) (io.ReadCloser, error) {
	s, stop, _, err := decompress("input", r)
	if err != nil {
		return nil, err
	}
	return &stopReader{Reader: s, stop: stop}, nil
}

// stopReader is an io.ReadCloser whose Close calls stop once.
type stopReader struct {
	io.Reader
	stop func()
}

func (s *stopReader) Close() error {
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
	return nil
}

// utf8BOM is the byte-order mark some editors put at the start of UTF-8
// files.
const utf8BOM = "\ufeff"

// skipBOM drops a UTF-8 byte-order mark at the start of br.
func skipBOM(br *bufio.Reader) {
	if b, _ := br.Peek(3); string(b) == utf8BOM {
		br.Discard(3)
	}
}
