package vectorize

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"regexp"
	"slices"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// This file holds the analyzers other than the default word scanner:
// character n-grams (char, char_wb), fastText-style subwords, a token
// pattern, and the Unicode preparation they share (NFKC, case folding,
// accent stripping). The CJK bigrams of the word analyzer are in cjk.go.

// Analysis are the settings that choose the analyzer: what text becomes
// which tokens. Their zero value is nbtext's analyzer from before they
// existed (scikit-learn's word pattern, str.lower, no Unicode
// normalisation), so a vocabulary, model or counts file that records none
// of them tokenizes exactly as it always did. All fields are omitted from
// the JSON when zero.
type Analysis struct {
	// Analyzer is "" (words), "char" (character n-grams of the whole
	// text) or "char_wb" (character n-grams within words padded with a
	// space), with scikit-learn's semantics.
	Analyzer string `json:"analyzer,omitempty"`
	// CharMin and CharMax bound the character n-grams of char and
	// char_wb (0 for words).
	CharMin int `json:"char_ngram_min,omitempty"`
	CharMax int `json:"char_ngram_max,omitempty"`
	// SubwordMin and SubwordMax (0: none), with words: each word w also
	// gives the character n-grams of "<w>" of SubwordMin..SubwordMax
	// characters, as fastText's -minn/-maxn, each prefixed by
	// SubwordPrefix.
	SubwordMin int `json:"subword_min,omitempty"`
	SubwordMax int `json:"subword_max,omitempty"`
	// CJKBigrams, with words: a run of Han, Hiragana, Katakana, Hangul or
	// Thai characters gives its overlapping character bigrams (the
	// character itself when the run has one), as Lucene's CJK bigram
	// filter does, instead of one token for the whole run.
	CJKBigrams bool `json:"cjk_bigrams,omitempty"`
	// Normalize is "" (none) or "nfkc": Unicode NFKC before anything else.
	Normalize string `json:"normalize,omitempty"`
	// CaseFold, with Lowercase, folds case fully (Unicode's case folding,
	// "Straße" → "strasse") instead of Python's str.lower.
	CaseFold bool `json:"case_fold,omitempty"`
	// StripAccents removes accents after lower-casing as scikit-learn's
	// strip_accents="unicode" does: NFKD, then drop every character with
	// a non-zero canonical combining class.
	StripAccents bool `json:"strip_accents,omitempty"`
	// TokenPattern, with words, replaces the word scanner by the matches
	// of this regular expression (Go's RE2 syntax) in the prepared text;
	// with one capturing group, the group is the token. Empty matches
	// are dropped.
	TokenPattern string `json:"token_pattern,omitempty"`
}

// MaxCharNGram bounds --char-ngram and --subwords.
const MaxCharNGram = 10

// SubwordPrefix opens every subword term, so that the subword "ell" of
// "hello" is not the word "ell".
const SubwordPrefix = "^"

// isChar reports whether a is a character analyzer (char or char_wb).
func (a Analysis) isChar() bool { return a.Analyzer == "char" || a.Analyzer == "char_wb" }

// validate reports the first analysis setting that is out of range, naming
// its flag; s is the whole Settings, for the word-only settings.
func (a Analysis) validate(s Settings) error {
	switch a.Analyzer {
	case "", "char", "char_wb":
	default:
		return fmt.Errorf("--analyzer must be word, char or char_wb, got %q", a.Analyzer)
	}
	if a.isChar() {
		if a.CharMin < 1 || a.CharMin > a.CharMax || a.CharMax > MaxCharNGram {
			return fmt.Errorf("--char-ngram must be MIN,MAX with 1 ≤ MIN ≤ MAX ≤ %d, got %d,%d", MaxCharNGram, a.CharMin, a.CharMax)
		}
		switch {
		case s.NGramMax > 1:
			return fmt.Errorf("--ngram is for the word analyzer; --analyzer %s takes --char-ngram", a.Analyzer)
		case s.StopWords != "":
			return fmt.Errorf("--stop-words is for the word analyzer, not --analyzer %s", a.Analyzer)
		case a.SubwordMax > 0:
			return fmt.Errorf("--subwords is for the word analyzer, not --analyzer %s", a.Analyzer)
		case a.TokenPattern != "":
			return fmt.Errorf("--token-pattern is for the word analyzer, not --analyzer %s", a.Analyzer)
		case s.Fields != "":
			return fmt.Errorf("--fields is for the word analyzer, not --analyzer %s (--fields none)", a.Analyzer)
		}
	} else if a.CharMin != 0 || a.CharMax != 0 {
		return fmt.Errorf("--char-ngram is for --analyzer char or char_wb")
	}
	if a.SubwordMin != 0 || a.SubwordMax != 0 {
		if a.SubwordMin < 1 || a.SubwordMin > a.SubwordMax || a.SubwordMax > MaxCharNGram {
			return fmt.Errorf("--subwords must be MIN,MAX with 1 ≤ MIN ≤ MAX ≤ %d, got %d,%d", MaxCharNGram, a.SubwordMin, a.SubwordMax)
		}
	}
	switch a.Normalize {
	case "", "nfkc":
	default:
		return fmt.Errorf("--unicode-norm must be nfkc or none, got %q", a.Normalize)
	}
	if a.CaseFold && !s.Lowercase {
		return fmt.Errorf("--case-fold needs --lowercase")
	}
	if a.TokenPattern != "" {
		re, err := regexp.Compile(a.TokenPattern)
		if err != nil {
			return fmt.Errorf("--token-pattern: %v", err)
		}
		if re.NumSubexp() > 1 {
			return fmt.Errorf("--token-pattern may have at most one capturing group, got %d", re.NumSubexp())
		}
	}
	return nil
}

// analyzer is a Tokenizer's state for the analyses beyond the word
// scanner: a nil *analyzer is the word scanner alone (with CJK bigrams
// when the Tokenizer's cjk is set).
type analyzer struct {
	kind       string // "", "char", "char_wb"
	cmin, cmax int
	nfkc       bool
	fold       *cases.Caser // nil: str.lower
	strip      bool
	re         *regexp.Regexp
	group      bool // the token is re's first group

	offs []int32 // rune offsets of the prepared text (char n-grams)
}

// newAnalyzer returns the analyzer of a, or nil when the word scanner does
// all of it (a holds at most CJKBigrams and subwords, which the Tokenizer
// handles itself).
func newAnalyzer(a Analysis) *analyzer {
	if a.Analyzer == "" && a.Normalize == "" && !a.CaseFold && !a.StripAccents && a.TokenPattern == "" {
		return nil
	}
	z := &analyzer{kind: a.Analyzer, cmin: max(a.CharMin, 1), cmax: max(a.CharMax, a.CharMin, 1),
		nfkc: a.Normalize == "nfkc", strip: a.StripAccents}
	if a.CaseFold {
		c := cases.Fold()
		z.fold = &c
	}
	if a.TokenPattern != "" {
		if re, err := regexp.Compile(a.TokenPattern); err == nil {
			z.re, z.group = re, re.NumSubexp() == 1
		}
	}
	return z
}

// isChar reports whether z is a character analyzer.
func (z *analyzer) isChar() bool { return z.kind == "char" || z.kind == "char_wb" }

// whole reports whether a long document must be tokenized whole: its
// tokens may span the white space where pieces are cut.
func (z *analyzer) whole() bool { return z != nil && (z.kind == "char" || z.re != nil) }

// analyze is Tokenizer.tokens under an analyzer: it appends the tokens of
// s to dst.
func (t *Tokenizer) analyze(s string, dst []string) []string {
	z := t.an
	switch z.kind {
	case "char":
		return t.charNGrams(t.prepare(s, t.lower), dst)
	case "char_wb":
		return t.charWBNGrams(t.prepare(s, t.lower), dst)
	}
	if z.re != nil {
		return z.match(t.prepare(s, t.lower), dst)
	}
	// The word scanner over the prepared text: it lowers as str.lower
	// does itself, unless folding or stripping needed the lowering first.
	pre := z.fold != nil || z.strip
	p := t.prepare(s, pre && t.lower)
	if !pre {
		return t.scanTokens(p, dst)
	}
	lower := t.lower
	t.lower = false
	dst = t.scanTokens(p, dst)
	t.lower = lower
	return dst
}

// prepare returns s normalised to NFKC (when asked), lowered (when lower:
// folded with the case folder, else as Python's str.lower) and stripped of
// accents (when asked). The result is s itself or a new string.
func (t *Tokenizer) prepare(s string, lower bool) string {
	return t.prepareIn(s, lower, nil)
}

// prepareIn is prepare that, given scratch, lowers as str.lower does into
// *scratch's bytes rather than a new string: the result is then valid only
// until scratch is used again (the counting of a fit worker, which copies
// the terms it keeps).
func (t *Tokenizer) prepareIn(s string, lower bool, scratch *[]byte) string {
	z := t.an
	if isASCII(s) {
		if lower && !z.isChar() { // the char analyzers lower A-Z as they lay out
			s = asciiLower(s)
		}
		return s
	}
	if z.nfkc {
		s = norm.NFKC.String(s)
	}
	if lower {
		switch {
		case z.fold != nil:
			s = z.fold.String(s)
		case scratch != nil:
			*scratch = appendPyLower((*scratch)[:0], s)
			if len(*scratch) > 0 {
				s = unsafe.String(&(*scratch)[0], len(*scratch))
			}
		default:
			s = pyLower(s)
		}
	}
	if z.strip {
		s = stripAccents(s)
	}
	return s
}

// isASCII reports whether s holds only bytes below 0x80, 8 at a time.
func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if le64(s[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiLower lowers A-Z of an ASCII string, copying only when it must.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII[b[j]]
			}
			return string(b)
		}
	}
	return s
}

// pyLower lowers s as Python's str.lower: every rune as unicode.ToLower
// does, except İ (U+0130), which becomes "i" + U+0307, and Σ, which
// becomes final ς in Unicode's Final_Sigma context (see finalSigma).
func pyLower(s string) string {
	return string(appendPyLower(make([]byte, 0, len(s)+8), s))
}

// appendPyLower appends s lowered as pyLower lowers it to b.
func appendPyLower(b []byte, s string) []byte {
	for i, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b = append(b, lowerASCII[byte(r)])
		case r == 'İ':
			b = append(b, "i\u0307"...)
		case r == 'Σ':
			lr := 'σ'
			if finalSigma(s, i, i+len("Σ")) {
				lr = 'ς'
			}
			b = utf8.AppendRune(b, lr)
		default:
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
	}
	return b
}

// stripAccents is scikit-learn's strip_accents_unicode: s decomposed to
// NFKD, without the characters of non-zero canonical combining class.
func stripAccents(s string) string {
	d := norm.NFKD.String(s)
	b := make([]byte, 0, len(d))
	for i := 0; i < len(d); {
		p := norm.NFKD.PropertiesString(d[i:])
		n := max(p.Size(), 1)
		if p.CCC() == 0 {
			b = append(b, d[i:min(i+n, len(d))]...)
		}
		i += n
	}
	return string(b)
}

// isPySpace reports whether r is white space to Python (str.isspace, and
// \s in a str pattern): Unicode's White_Space and the separators U+001C to
// U+001F.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// charNGrams appends the character n-grams of p to dst as scikit-learn's
// _char_ngrams makes them (see charText), by n, then by position. They are
// slices of the collapsed text in the arena.
func (t *Tokenizer) charNGrams(p string, dst []string) []string {
	text, offs := t.charText(p)
	z := t.an
	nr := len(offs) - 1
	for n := z.cmin; n <= z.cmax && n <= nr; n++ {
		for i := 0; i+n <= nr; i++ {
			dst = append(dst, text[offs[i]:offs[i+n]])
		}
	}
	return dst
}

// charText writes p into the arena as scikit-learn's _char_ngrams sees
// it, every run of two or more white space characters collapsed to one
// space (a lone one stays as it is), and A-Z lowered when the tokenizer
// lowers (prepare left an ASCII text as it was). It returns the text and
// the byte offsets of its runes, with its length last: the n-gram of n
// runes at rune i is text[offs[i]:offs[i+n]]. The arena keeps 8 bytes of
// slack past the text, so that 8 bytes can be loaded from any offset.
func (t *Tokenizer) charText(p string) (string, []int32) {
	z := t.an
	start := len(t.arena)
	arena := slices.Grow(t.arena, len(p)+8)
	offs := z.offs[:0]
	lower := t.lower
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf && asciiClass[c]&clsWord != 0 { // common case: no space, one byte
			offs = append(offs, int32(len(arena)-start))
			if lower {
				c = lowerASCII[c]
			}
			arena = append(arena, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if isPySpace(r) {
			j, k := i+size, 1
			for j < len(p) {
				r2, s2 := utf8.DecodeRuneInString(p[j:])
				if !isPySpace(r2) {
					break
				}
				j += s2
				k++
			}
			offs = append(offs, int32(len(arena)-start))
			if k >= 2 {
				arena = append(arena, ' ')
			} else {
				arena = append(arena, p[i:j]...)
			}
			i = j
			continue
		}
		offs = append(offs, int32(len(arena)-start))
		if lower && size == 1 {
			arena = append(arena, lowerASCII[c])
		} else {
			arena = append(arena, p[i:i+size]...)
		}
		i += size
	}
	offs = append(offs, int32(len(arena)-start))
	t.arena = slices.Grow(arena, 8)
	z.offs = offs
	return t.arenaString(start), offs
}

// charWBNGrams appends the character n-grams of p to dst as scikit-learn's
// _char_wb_ngrams makes them: for each word of p (split at white space),
// padded with a space on each side, for n from CharMin to CharMax, its
// n-grams by position; a padded word of n characters or fewer gives
// itself once, and no longer n-grams. They are slices of the text
// charWBText lays out.
func (t *Tokenizer) charWBNGrams(p string, dst []string) []string {
	z := t.an
	text, offs := t.charWBText(p)
	for k, ws := range t.starts {
		a := int(ws) - 1             // the padding space before the word
		wl := int(t.ends[k]) + 1 - a // the padded word's runes
		for n := z.cmin; n <= z.cmax; n++ {
			dst = append(dst, text[offs[a]:offs[a+min(n, wl)]])
			if n >= wl {
				break // the whole padded word, once
			}
			for o := 1; o+n <= wl; o++ {
				dst = append(dst, text[offs[a+o]:offs[a+o+n]])
			}
		}
	}
	return dst
}

// charWBText writes the words of p (split at white space, A-Z lowered
// when the tokenizer lowers) into the arena as " w1 w2 … wk ", each
// padded word sharing its spaces with its neighbours, so that every
// n-gram of a padded word is a slice of it. It returns the text and its
// rune offsets as charText does, and leaves in t.starts and t.ends the
// rune index of each word's first rune and of the space after it.
func (t *Tokenizer) charWBText(p string) (string, []int32) {
	z := t.an
	start := len(t.arena)
	arena := slices.Grow(t.arena, len(p)+10)
	offs := z.offs[:0]
	starts, ends := t.starts[:0], t.ends[:0]
	lower := t.lower
	inWord := false
	for i := 0; i < len(p); {
		c := p[i]
		size := 1
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(p[i:])
			if isPySpace(r) {
				c = ' '
			}
		} else if asciiClass[c]&clsWord == 0 && isPySpace(rune(c)) {
			c = ' '
		}
		if c == ' ' {
			if inWord {
				ends = append(ends, int32(len(offs)))
				inWord = false
			}
			i += size
			continue
		}
		if !inWord {
			offs = append(offs, int32(len(arena)-start))
			arena = append(arena, ' ')
			starts = append(starts, int32(len(offs)))
			inWord = true
		}
		offs = append(offs, int32(len(arena)-start))
		if size == 1 {
			if lower {
				c = lowerASCII[c]
			}
			arena = append(arena, c)
		} else {
			arena = append(arena, p[i:i+size]...)
		}
		i += size
	}
	if inWord {
		ends = append(ends, int32(len(offs)))
	}
	if len(starts) > 0 {
		offs = append(offs, int32(len(arena)-start))
		arena = append(arena, ' ')
	}
	offs = append(offs, int32(len(arena)-start))
	t.arena = slices.Grow(arena, 8)
	z.offs, t.starts, t.ends = offs, starts, ends
	return t.arenaString(start), offs
}

// asciiPySpace marks the ASCII bytes that are white space to Python
// (isPySpace).
var asciiPySpace = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isPySpace(rune(c))
	}
	return t
}()

// wbWords lays out the words of p in the arena as charWBText does, " w1
// w2 … wk ", but without rune offsets, for Fit's counting
// (fitWorker.countChars): it returns the text and leaves in t.starts and
// t.ends the byte offsets of each word's first byte and of the space
// after it, the start complemented (^start, negative) when the word holds
// a byte ≥ 0x80. The text is at most len(p)+2 bytes (white space only
// shrinks), so it is written by index into the arena grown once.
func (t *Tokenizer) wbWords(p string) string {
	start := len(t.arena)
	arena := slices.Grow(t.arena, len(p)+10)
	buf := arena[start : start+len(p)+2]
	starts, ends := t.starts[:0], t.ends[:0]
	lower := &lowerASCII
	if !t.lower {
		lower = &identityASCII
	}
	pos := 0        // bytes written
	ws := -1        // the current word's first byte, or -1 between words
	high := false   // the current word holds a byte ≥ 0x80
	end := func() { // the current word ends at pos
		s := int32(ws)
		if high {
			s = ^s
		}
		starts = append(starts, s)
		ends = append(ends, int32(pos))
		buf[pos] = ' '
		pos++
		ws = -1
	}
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if asciiPySpace[c] {
				if ws >= 0 {
					end()
				}
				i++
				continue
			}
			if ws < 0 {
				if pos == 0 {
					buf[0] = ' '
					pos = 1
				}
				ws, high = pos, false
			}
			buf[pos] = lower[c]
			pos++
			i++
			// The word's next bytes 8 at a time while they are ASCII
			// and not white space: all bytes past 0x20 and below 0x80
			// (ASCII white space is at most 0x20). The 8 bytes are
			// stored whole, and pos moves past the word bytes only:
			// what lies past pos is written again. pos ≤ i+1 (a space
			// before the first word, then one per white space run or
			// at the end), so pos+8 ≤ len(buf) while i+8 ≤ len(p).
			for i+8 <= len(p) {
				x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(p[i:]), 8))
				x7 := x & 0x7f7f7f7f7f7f7f7f
				// A byte's high bit: ≥ 0x80, or (of x7 + 0x5f clear) ≤ 0x20.
				stop := (x | ^(x7 + 0x5f5f5f5f5f5f5f5f)) & 0x8080808080808080
				if t.lower { // A-Z: x7 + 0x3f sets the high bit (≥ 'A'), x7 + 0x25 does not (≤ 'Z')
					x |= (x7 + 0x3f3f3f3f3f3f3f3f) &^ (x7 + 0x2525252525252525) & 0x8080808080808080 >> 2
				}
				binary.LittleEndian.PutUint64(buf[pos:pos+8], x)
				if stop == 0 {
					pos, i = pos+8, i+8
					continue
				}
				k := bits.TrailingZeros64(stop) >> 3
				pos, i = pos+k, i+k
				break
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(p[i:])
		if isPySpace(r) {
			if ws >= 0 {
				end()
			}
			i += size
			continue
		}
		if ws < 0 {
			if pos == 0 {
				buf[0] = ' '
				pos = 1
			}
			ws = pos
		}
		high = true
		pos += copy(buf[pos:], p[i:i+size])
		i += size
	}
	if ws >= 0 {
		end()
	}
	t.arena = slices.Grow(arena[:start+pos], 8)
	t.starts, t.ends = starts, ends
	return t.arenaString(start)
}

// identityASCII maps every byte to itself: lowerASCII without lowering.
var identityASCII = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
	}
	return t
}()

// match appends the matches of the token pattern in p to dst (the first
// group's when the pattern has one), without empty ones.
func (z *analyzer) match(p string, dst []string) []string {
	for _, m := range z.re.FindAllStringSubmatchIndex(p, -1) {
		a, b := m[0], m[1]
		if z.group {
			a, b = m[2], m[3]
		}
		if a >= 0 && b > a {
			dst = append(dst, p[a:b])
		}
	}
	return dst
}

// appendSubwords appends to dst the subword terms of words: for each word
// w, the n-grams of "<w>" of SubwordMin..SubwordMax characters, by start
// then length, as fastText's computeSubwords lists them (without "<" and
// ">" alone), each prefixed by SubwordPrefix.
func (t *Tokenizer) appendSubwords(words, dst []string) []string {
	var offs [66]int32
	for _, w := range words {
		o := offs[:0]
		if utf8.RuneCountInString(w) > 64 {
			continue // a long run of word characters: no subwords
		}
		o = append(o, 0)
		for i := range w {
			o = append(o, int32(i+1))
		}
		nr := len(o) + 1 // runes of "<w>"
		o = append(o, int32(len(w)+1), int32(len(w)+2))
		// The bytes of "^<w>" once; the n-grams are built from them.
		base := len(t.arena)
		t.arena = append(t.arena, SubwordPrefix...)
		t.arena = append(t.arena, '<')
		t.arena = append(t.arena, w...)
		t.arena = append(t.arena, '>')
		whole := t.arenaString(base)
		full := whole[len(SubwordPrefix):]
		for i := 0; i < nr; i++ {
			for n := t.swMin; n <= t.swMax && i+n <= nr; n++ {
				if n == 1 && (i == 0 || i == nr-1) {
					continue
				}
				gram := full[o[i]:o[i+n]]
				if i == 0 && n == nr {
					dst = append(dst, whole) // "^<w>" as written
					continue
				}
				s := len(t.arena)
				t.arena = append(t.arena, SubwordPrefix...)
				t.arena = append(t.arena, gram...)
				dst = append(dst, t.arenaString(s))
			}
		}
	}
	return dst
}
