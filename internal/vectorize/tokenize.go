package vectorize

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Byte classes of asciiClass, a bit set.
const (
	clsWord     = 1 << iota // [0-9a-z_] and, as clsWord|clsUpper, [A-Z]
	clsUpper                // [A-Z]: needs lowering
	clsNonASCII             // a byte ≥ 0x80: decode the rune
)

// asciiClass classifies every byte: 0 for an ASCII non-word byte. It is the
// plain statement of what scan computes 8 bytes at a time.
var asciiClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 0x80:
			t[c] = clsNonASCII
		case c >= 'A' && c <= 'Z':
			t[c] = clsWord | clsUpper
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
			t[c] = clsWord
		}
	}
	return t
}()

// IsWordRune reports whether r is a word character in the sense of Python's
// re \w on str patterns: a letter (Unicode category L*), a number (N*, which
// includes ², ½ and Roman numerals) or '_'. Combining marks (M*) are not.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiClass[r]&clsWord != 0
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Tokenizer turns a document into its terms: the tokens of scikit-learn's
// default CountVectorizer (lower-cased, token pattern (?u)\b\w\w+\b), minus
// stop words, then word n-grams of NGramMin..NGramMax tokens joined by one
// space, then the field terms of Settings.Fields. A Tokenizer keeps scratch buffers: it is not safe for concurrent
// use; make one per goroutine.
type Tokenizer struct {
	lower      bool
	stop       map[string]struct{}
	nmin, nmax int
	fields     []Field

	an           *analyzer // nil: the word scanner alone (see analyzer.go)
	cjk          bool      // CJK bigrams in the word scanner (see cjk.go)
	swMin, swMax int       // subwords (0: none)

	arena []byte // lowered tokens and n-grams of the current document

	// Bit masks of the current document, one bit per byte (see scan).
	wordMask, upperMask, highMask []uint64
	high                          bool     // some byte ≥ 0x80
	upper                         bool     // some byte in A-Z
	starts, ends                  []int32  // the word-byte runs of the current text (see tokens)
	uni                           []string // unigrams of the current document, after stop words
	fieldWords                    []string // tokens of one header field value
	ngrams                        []string // unigrams and n-grams, when NGramMax > 1
}

// NewTokenizer returns a tokenizer for s's Lowercase, StopWords, n-gram and
// Fields settings. Settings should be validated first; an n-gram range
// below 1 is treated as 1,1, an unknown stop word list as none and an
// invalid Fields as none. With Remove naming headers there are no field
// terms: what is left of a post after its header is body, whatever it
// looks like.
func NewTokenizer(s Settings) *Tokenizer {
	t := &Tokenizer{lower: s.Lowercase, nmin: max(s.NGramMin, 1), nmax: max(s.NGramMax, s.NGramMin, 1),
		an: newAnalyzer(s.Analysis), cjk: s.CJKBigrams && !s.isChar(), swMin: s.SubwordMin, swMax: s.SubwordMax}
	if !s.headersRemoved() {
		t.fields, _ = ParseFields(s.Fields)
	}
	if s.StopWords == "english" {
		t.stop = englishStopSet
	}
	return t
}

// englishStopSet indexes englishStopWords.
var englishStopSet = func() map[string]struct{} {
	m := make(map[string]struct{}, len(englishStopWords))
	for _, w := range englishStopWords {
		m[w] = struct{}{}
	}
	return m
}()

// EnglishStopWords returns a copy of scikit-learn's English stop word list
// (318 words), sorted.
func EnglishStopWords() []string {
	return append([]string(nil), englishStopWords[:]...)
}

// forget drops the tokens of the last document: they are substrings of
// its text, and a long-lived Tokenizer (one per predict worker) must not
// keep a huge document alive after it is scored. It costs one store per
// token the last call kept.
func (t *Tokenizer) forget() {
	clear(t.uni)
	clear(t.fieldWords)
	clear(t.ngrams)
}

// Terms returns the terms of text in document order: the unigrams (when
// NGramMin is 1), then the 2-grams, and so on up to NGramMax, as
// scikit-learn's _word_ngrams orders them, then the field terms of the
// header block that opens text (see Settings.Fields). The slice and the
// strings in it may alias the tokenizer's buffers: they are valid until the
// next call to Terms or Each; clone a term (strings.Clone) to keep it.
func (t *Tokenizer) Terms(text string) []string { return t.terms(text, true) }

// terms is Terms for a piece of a document: head says whether the piece
// opens the document, where the header block is.
func (t *Tokenizer) terms(text string, head bool) []string {
	uni := t.unigrams(text)
	if t.nmax == 1 {
		if t.swMax > 0 {
			uni = t.appendSubwords(uni[:len(uni):len(uni)], uni)
		}
		if head {
			uni = t.appendFields(text, uni)
		}
		t.uni = uni
		return uni
	}
	t.uni = uni
	terms := t.ngrams[:0]
	if t.nmin == 1 {
		terms = append(terms, uni...)
	}
	for n := max(t.nmin, 2); n <= t.nmax && n <= len(uni); n++ {
		for i := 0; i+n <= len(uni); i++ {
			start := len(t.arena)
			t.arena = append(t.arena, uni[i]...)
			for _, w := range uni[i+1 : i+n] {
				t.arena = append(t.arena, ' ')
				t.arena = append(t.arena, w...)
			}
			terms = append(terms, t.arenaString(start))
		}
	}
	if t.swMax > 0 {
		terms = t.appendSubwords(uni, terms)
	}
	if head {
		terms = t.appendFields(text, terms)
	}
	t.ngrams = terms
	return terms
}

// unigrams returns the tokens of text in document order without the stop
// words: the words n-grams are made of. Like Terms, its result aliases
// the tokenizer's buffers.
func (t *Tokenizer) unigrams(text string) []string {
	t.arena = t.arena[:0]
	uni := t.tokens(text, t.uni[:0])
	if t.stop != nil {
		k := 0
		for _, tok := range uni {
			if _, ok := t.stop[tok]; !ok {
				uni[k] = tok
				k++
			}
		}
		uni = uni[:k]
	}
	t.uni = uni
	return uni
}

// words returns the tokens of text in document order, before stop words
// are removed and n-grams formed, then (when head says that text opens a
// document) its field terms, which are never stop words. Like Terms, its
// result aliases the tokenizer's buffers.
func (t *Tokenizer) words(text string, head bool) []string {
	t.arena = t.arena[:0]
	t.uni = t.tokens(text, t.uni[:0])
	if head {
		t.uni = t.appendFields(text, t.uni)
	}
	return t.uni
}

// wordsOnly reports whether the terms are the words alone (unigrams,
// stop words, no subwords), so that a caller may drop stop words by their
// ids after tokenizing with words.
func (t *Tokenizer) wordsOnly() bool { return t.stop != nil && t.nmax == 1 && t.swMax == 0 }

// Each calls fn with each term of text, in the order of Terms. A term is
// valid only during the call: clone it (strings.Clone) to keep it.
func (t *Tokenizer) Each(text string, fn func(term string)) {
	for _, term := range t.Terms(text) {
		fn(term)
	}
}

// arenaString returns t.arena[start:] as a string without copying. The
// bytes are never written again until the next document resets the arena
// (appends that grow it copy to a new array and leave the old one intact).
func (t *Tokenizer) arenaString(start int) string {
	if start == len(t.arena) {
		return ""
	}
	return unsafe.String(&t.arena[start], len(t.arena)-start)
}

// tokens appends the tokens of s to dst and returns it: those of the
// analyzer (analyzer.go) when there is one, else the word scanner's. A
// word scanner's token is a
// maximal run of word runes (IsWordRune), lower-cased when t.lower, of at
// least 2 runes: exactly the matches of (?u)\b\w\w+\b on the lower-cased
// text.
//
// The runs come from the bit masks of scan, in two loops. The first finds
// every run of word bytes (bytes ≥ 0x80 count as word bytes there): a run
// starts at a word bit whose predecessor is clear and ends at a clear bit
// whose predecessor is set, so it visits the set bits of those two masks
// of each 64-bit word (a few instructions each, no branch per byte) and
// records the starts and the ends: runs alternate, so the k-th start and
// the k-th end bound the k-th run. The second makes the tokens: runs with
// a byte ≥ 0x80 go to slowRun, which decodes runes; pure ASCII runs are
// sliced from s, or lowered into the arena when they hold an upper-case
// letter. Neither loop calls a function on its common path, so neither
// spills its variables to the stack every token.
func (t *Tokenizer) tokens(s string, dst []string) []string {
	if t.an != nil {
		return t.analyze(s, dst)
	}
	return t.scanTokens(s, dst)
}

// scanTokens is tokens by the word scanner.
func (t *Tokenizer) scanTokens(s string, dst []string) []string {
	t.scan(s)
	wm := t.wordMask
	starts, ends := t.starts[:0], t.ends[:0]
	var carry uint64 // the last bit of the previous word
	for wi, w := range wm {
		prev := w<<1 | carry // each bit's predecessor
		carry = w >> 63
		base := int32(wi << 6)
		for m := w &^ prev; m != 0; m &= m - 1 {
			starts = append(starts, base+int32(bits.TrailingZeros64(m)))
		}
		for m := prev &^ w; m != 0; m &= m - 1 {
			ends = append(ends, base+int32(bits.TrailingZeros64(m)))
		}
	}
	// The masks end with a clear bit (see scan): every run has its end.
	ends = ends[:len(starts)]
	t.starts, t.ends = starts, ends
	if !t.high && (!t.lower || !t.upper) { // every run is a token as it stands
		for k, a := range starts {
			if b := ends[k]; b-a >= 2 {
				dst = append(dst, s[a:b])
			}
		}
		return dst
	}
	um, hm := t.upperMask, t.highMask
	lower := t.lower
	arena := t.arena
	for k, a32 := range starts {
		a, b := int(a32), int(ends[k])
		if b-a < 2 { // one ASCII word byte, or one byte ≥ 0x80: no rune of a token
			continue
		}
		var isHigh, isUpper bool
		if wa := a >> 6; wa == (b-1)>>6 {
			inRun := uint64(1<<uint(b-a)-1) << (a & 63) // the run's bits (b-a = 64: all ones)
			isHigh, isUpper = hm[wa]&inRun != 0, um[wa]&inRun != 0
		} else {
			isHigh, isUpper = t.high && anyBit(hm, a, b), anyBit(um, a, b)
		}
		if isHigh {
			t.arena = arena
			dst = t.slowRun(s, a, b, dst)
			arena = t.arena
			continue
		}
		if !lower || !isUpper {
			dst = append(dst, s[a:b])
			continue
		}
		// Lower A-Z into the arena, 8 bytes at a time (the run is ASCII):
		// a lane holds an upper-case letter when x+0x3f carries into its
		// top bit and x+0x25 does not; adding bit 5 there lowers it. The
		// last load may reach past the run (up to 8 bytes of slack in
		// the arena, within s or padded from it); only the run's bytes
		// are kept.
		n0, n1 := len(arena), len(arena)+b-a
		if n1+8 > cap(arena) {
			arena = slices.Grow(arena, max(b-a, len(s))+8)
		}
		d := arena[n0 : n1+8]
		for j := 0; j < b-a; j += 8 {
			var x uint64
			if a+j+8 <= len(s) {
				x = binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[a+j:]), 8))
			} else {
				var tail [8]byte
				copy(tail[:], s[a+j:])
				x = binary.LittleEndian.Uint64(tail[:])
			}
			up := (x + 0x3f3f3f3f3f3f3f3f) &^ (x + 0x2525252525252525) & 0x8080808080808080
			binary.LittleEndian.PutUint64(d[j:j+8], x|up>>2)
		}
		arena = arena[:n1]
		dst = append(dst, unsafe.String(&arena[n0], n1-n0))
	}
	t.arena = arena
	return dst
}

// slowRun appends to dst the tokens of the word-byte run s[a:b], which
// holds a byte ≥ 0x80: it decodes runes, skips those that are not word
// runes, and lowers the rest with slowToken. With CJK bigrams, a run of
// CJK characters ends a token and gives its bigrams (cjkBigrams).
func (t *Tokenizer) slowRun(s string, a, b int, dst []string) []string {
	for i := a; i < b; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if t.cjk && isCJK(r) {
			dst, i = cjkBigrams(s, i, b, dst)
			continue
		}
		if !IsWordRune(r) {
			i += size
			continue
		}
		tok, end, runes := t.slowToken(s, i)
		if runes >= 2 {
			dst = append(dst, tok)
		}
		i = end
	}
	return dst
}

// anyBit reports whether mask has a bit set in [a, b), a < b.
func anyBit(mask []uint64, a, b int) bool {
	wa, wb := a>>6, (b-1)>>6
	if wa == wb {
		n := uint(b - a)
		return (mask[wa]>>(a&63))&(1<<n-1) != 0 // n = 64 gives 1<<64-1 = all ones
	}
	if mask[wa]>>(a&63) != 0 {
		return true
	}
	for w := wa + 1; w < wb; w++ {
		if mask[w] != 0 {
			return true
		}
	}
	return mask[wb]&(^uint64(0)>>(63-(b-1)&63)) != 0
}

// scan builds the bit masks of s that tokens reads, one bit per byte (bit
// i&63 of word i>>6): wordMask for ASCII word bytes ([0-9A-Za-z_]) and
// every byte ≥ 0x80, upperMask for A-Z, highMask for bytes ≥ 0x80. The
// masks have a word beyond len(s)/64 so that a run always ends inside them.
// The whole 64-byte blocks of s are classified by scanBlocks (packed SSE2
// on amd64), the rest from a copy padded with zeros.
func (t *Tokenizer) scan(s string) {
	nw := len(s)/64 + 1
	t.wordMask = slices.Grow(t.wordMask[:0], nw)[:nw]
	t.upperMask = slices.Grow(t.upperMask[:0], nw)[:nw]
	t.highMask = slices.Grow(t.highMask[:0], nw)[:nw]
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	full := nw - 1
	anyHigh, anyUpper := scanBlocks(b[:full*64], t.wordMask[:full], t.upperMask[:full], t.highMask[:full])
	var tail [64]byte
	copy(tail[:], b[full*64:])
	h, u := scanBlocks(tail[:], t.wordMask[full:], t.upperMask[full:], t.highMask[full:])
	t.high, t.upper = anyHigh|h != 0, anyUpper|u != 0
}

// scanBlocksGo is scanBlocks in Go, for every platform.
//
// It classifies 8 bytes at a time (SWAR: SIMD within a register), with no
// branch per byte. With each byte's high bit forced to 1 (a = x | 0x80…),
// the lane-wise difference a − lo keeps the lane's high bit exactly when
// the byte's low 7 bits are ≥ lo, and no lane borrows from its neighbour;
// a range [lo, hi) is ge(lo) &^ ge(hi). OR-ing 0x20 folds A-Z onto a-z;
// '_' is the lane where x ^ 0x5f is zero. movemask then packs the 8 lane
// bits into a byte of the mask.
func scanBlocksGo(b []byte, word, upper, high []uint64) (anyHigh, anyUpper uint64) {
	const ones, top = 0x0101010101010101, 0x8080808080808080
	for w := range len(b) / 64 {
		var wordBits, upperBits, highBits uint64
		blk := b[w*64 : w*64+64]
		for k := 0; k < 64; k += 8 {
			x := binary.LittleEndian.Uint64(blk[k : k+8])
			hi := x & top
			a := x | top
			digit := (a - 0x30*ones) &^ (a - 0x3a*ones)
			up := (a - 0x41*ones) &^ (a - 0x5b*ones)
			f := a | 0x20*ones
			letter := (f - 0x61*ones) &^ (f - 0x7b*ones)
			z := (x &^ top) ^ 0x5f*ones
			under := ^((z | top) - ones)
			wordBits |= movemask((digit|letter|under)&top|hi) << k
			upperBits |= movemask(up&^hi&top) << k
			highBits |= movemask(hi) << k
		}
		word[w], upper[w], high[w] = wordBits, upperBits, highBits
		anyHigh |= highBits
		anyUpper |= upperBits
	}
	return anyHigh, anyUpper
}

// movemask gathers the high bits of x's 8 bytes into an 8-bit mask.
func movemask(x uint64) uint64 {
	return ((x >> 7) * 0x0102040810204080) >> 56
}

// lowerASCII maps A-Z to a-z and every other byte to itself.
var lowerASCII = func() (t [256]byte) {
	for c := range t {
		t[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

// slowToken scans the word run that starts at byte start of s and holds a
// non-ASCII rune. It returns the token (lowered per Python's str.lower when
// t.lower), the offset just past it and its length in runes.
//
// Python lowers U+0130 (İ) to "i" + U+0307 COMBINING DOT ABOVE, a mark and
// so a word boundary: the run ends after the "i". Python lowers Σ to final
// ς when it ends a word (the Final_Sigma condition of Unicode's
// SpecialCasing), else to σ. Every other rune maps as unicode.ToLower does.
func (t *Tokenizer) slowToken(s string, start int) (string, int, int) {
	a := len(t.arena)
	changed := false
	runes := 0
	i := start
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if t.lower && r == 'İ' {
			t.arena = append(t.arena, 'i')
			i += size
			runes++
			changed = true
			break
		}
		if !IsWordRune(r) || t.cjk && isCJK(r) {
			break
		}
		runes++
		if t.lower {
			lr := r
			switch {
			case r < utf8.RuneSelf:
				if asciiClass[r]&clsUpper != 0 {
					lr = r + 'a' - 'A'
				}
			case r == 'Σ':
				lr = 'σ'
				if finalSigma(s, i, i+size) {
					lr = 'ς'
				}
			default:
				lr = unicode.ToLower(r)
			}
			if lr != r {
				changed = true
			}
			t.arena = utf8.AppendRune(t.arena, lr)
		}
		i += size
	}
	if !changed {
		t.arena = t.arena[:a]
		return s[start:i], i, runes
	}
	return t.arenaString(a), i, runes
}

// finalSigma reports whether the Σ at s[i:j] is in Unicode's Final_Sigma
// context, as CPython's str.lower tests it: preceded by a cased letter and
// not followed by one, skipping case-ignorable runes on either side.
func finalSigma(s string, i, j int) bool {
	var r rune
	found := false
	for k := i; k > 0; {
		var size int
		r, size = utf8.DecodeLastRuneInString(s[:k])
		k -= size
		if !isCaseIgnorable(r) {
			found = true
			break
		}
	}
	if !found || !isCased(r) {
		return false
	}
	for k := j; k < len(s); {
		r, size := utf8.DecodeRuneInString(s[k:])
		k += size
		if !isCaseIgnorable(r) {
			return !isCased(r)
		}
	}
	return true
}

// isCased is Unicode's Cased property: Lu, Ll, Lt, Other_Uppercase and
// Other_Lowercase.
func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk
// and the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '·', 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019, 0x2024,
		0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
