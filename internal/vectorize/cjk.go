package vectorize

import (
	"unicode"
	"unicode/utf8"
)

// This file holds the CJK bigrams of the word analyzer
// (Analysis.CJKBigrams): Chinese, Japanese, Korean and Thai are written
// without spaces between words, so a run of their characters is a clause,
// not a word. Lucene's CJKBigramFilter indexes such a run as its
// overlapping character bigrams; so does nbtext.

// cjkTables are the scripts whose runs become bigrams.
var cjkTables = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai}

// isCJK reports whether r is a character of an unsegmented script: Han,
// Hiragana, Katakana, Hangul or Thai (Thai's vowel and tone marks
// included), or the prolonged sound mark ー (U+30FC, of the Common script,
// written inside Katakana words).
func isCJK(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	return r == 0x30FC || unicode.In(r, cjkTables...)
}

// cjkBigrams appends to dst the bigrams of the run of CJK characters that
// starts at byte i of s and ends before byte b or the first other rune,
// and returns dst and the end of the run. A run of one character gives
// that character. The bigrams are slices of s: these scripts have no case
// to lower.
func cjkBigrams(s string, i, b int, dst []string) ([]string, int) {
	p0 := i // start of the previous character
	_, size := utf8.DecodeRuneInString(s[i:])
	i += size
	n := 1
	for i < b {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isCJK(r) {
			break
		}
		dst = append(dst, s[p0:i+size])
		_, s0 := utf8.DecodeRuneInString(s[p0:])
		p0 += s0
		i += size
		n++
	}
	if n == 1 {
		dst = append(dst, s[p0:i])
	}
	return dst, i
}
