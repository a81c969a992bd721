package corpus

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Decode turns the bytes of one document into text: the bytes themselves
// when they are valid UTF-8 (plain ASCII included), else latin-1, one byte
// to one rune, as scikit-learn's 20 Newsgroups loader reads every file. The
// valid case costs one scan and the one copy of the string conversion.
// Carriage returns and other control characters are kept as they are.
func Decode(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return latin1(b)
}

// latin1 decodes b as ISO 8859-1: bytes below 0x80 stay, every other byte
// becomes the two-byte UTF-8 form of the rune with the same value.
func latin1(b []byte) string {
	n := len(b)
	for _, c := range b {
		if c >= utf8.RuneSelf {
			n++
		}
	}
	var sb strings.Builder
	sb.Grow(n)
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] < utf8.RuneSelf {
			i++
		}
		sb.Write(b[:i])
		if i == len(b) {
			break
		}
		c := b[i]
		sb.WriteByte(0xC0 | c>>6)
		sb.WriteByte(0x80 | c&0x3F)
		b = b[i+1:]
	}
	return sb.String()
}

// hasNUL reports whether b holds a NUL byte, the mark of a binary file.
func hasNUL(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }
