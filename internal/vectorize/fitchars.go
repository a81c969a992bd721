package vectorize

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/nbtext/nbtext/internal/prefault"
)

// This file holds Fit's counting of character n-grams (Analysis.Analyzer
// char and char_wb), by hash rather than by string: every n-gram is a
// window of the text the tokenizer lays out (charText; for char_wb,
// wbWords), and one of at most 7 bytes, nearly all of them, is looked up
// by its bytes packed with its length into a uint64 key: one 8-byte load,
// a mask and a probe of a gramTable, with no string made and no bytes
// compared; an ASCII one of 1 or 2 bytes, by direct index. In an all-ASCII
// char_wb word (countWBWords) characters are bytes, so the windows need
// no rune offsets and the first probe is inline. A gram's text is copied
// once, when the worker first meets it. Longer grams go through the term
// table by their text. The terms, and so the vocabulary, are those of
// Tokenizer.Terms (TestCharVocabularyMatchesScikitLearn).
//
// A document's n-grams are counted where they are looked up, in their
// gramTable slot or short entry, and those counts move to the row (and
// the terms' totals) once per distinct gram and document, when add ends
// it (rowFromGrams; flushGrams to the seen entries if the table grew): a
// text of n bytes has about 3n n-grams of 1-3 characters but only a few
// hundred distinct ones, and reading a seen entry per n-gram (40,000
// terms, 450 KiB with a TermCounter's totals) was a third of the samples
// of the per-gram function before (IMDB train split, perf). A gram's
// first occurrence in the document still appends its id to the row there
// and then, so rows, their order and the local ids are those of counting
// every n-gram in w.seen as it is met (TestGramCountsMatchEveryGram,
// FuzzGramCounts).

// gramKey packs the n-gram text[a:b] (b−a ≤ 7) with its length: two grams
// have the same key exactly when they have the same bytes.
func gramKey(text string, a, b int) uint64 {
	// text lies in the arena, which holds 8 bytes of slack past it.
	x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(text[a:]), 8))
	n := uint(b - a)
	return x&(1<<(8*n)-1) | uint64(n)<<56
}

// countChars is fitWorker.count for the character analyzers (without
// hashing and field terms, which a character analyzer does not take); head
// says whether text opens the document.
func (w *fitWorker) countChars(text string, head bool) {
	tok := w.tok
	z := tok.an
	tok.arena = tok.arena[:0]
	p := tok.prepareIn(text, tok.lower, &w.lowered)
	if cap(w.lowered) > maxLoweredRoom {
		// A huge document's lowering is not kept for the next one.
		defer func() { w.lowered = nil }()
	}
	if w.grams == nil {
		w.grams, w.short = newGramTable(), make([]shortGram, 128+128*128)
	}
	// The counts stay in the entries across the pieces of a document,
	// until add moves them (rowFromGrams, or flushGrams): the seen entries
	// hold none of the document's counts unless the gramTable grew.
	if head {
		w.later = false
	}
	if z.kind == "char" {
		t, offs := tok.charText(p)
		nr := len(offs) - 1
		for n := z.cmin; n <= z.cmax && n <= nr; n++ {
			for i := 0; i+n <= nr; i++ {
				w.countGram(t, int(offs[i]), int(offs[i+n]))
			}
		}
		return
	}
	w.countWBWords(tok.wbWords(p))
}

// countWord counts the char_wb n-grams of the padded word t[a:b] as
// charWBNGrams lists them: for n from CharMin to CharMax, its n-grams by
// position; a padded word of n characters or fewer gives itself once, and
// no longer n-grams.
func (w *fitWorker) countWord(t string, a, b int) {
	z := w.tok.an
	for n := z.cmin; n <= z.cmax; n++ {
		e, k := a, 0 // the end of the n-gram at a, and its runes
		for ; k < n && e < b; k++ {
			e += runeLen(t, e)
		}
		w.countGram(t, a, e)
		if e == b {
			return // the whole padded word, once
		}
		for s := a + runeLen(t, a); e < b; s += runeLen(t, s) {
			e += runeLen(t, e)
			w.countGram(t, s, e)
		}
	}
}

// runeLen returns the bytes of the rune at t[i], as utf8.DecodeRune
// reads it (1 for a byte that starts no valid rune).
func runeLen(t string, i int) int {
	if t[i] < utf8.RuneSelf {
		return 1
	}
	_, size := utf8.DecodeRuneInString(t[i:])
	return size
}

// countWBWords counts the char_wb n-grams of the words that wbWords laid
// out in t, word by word as countWord does. The n-grams of an all-ASCII
// word (nearly all of them, in most text) are counted here: one byte, one
// character, so that the n-grams are byte windows, their keys one 8-byte
// load and a mask, and the probes inline.
//
// A gram's first count since flushGrams (a fifth of the counts on the
// IMDB train split) notes its entry in w.touched and, first in the
// document, its id in the row, without a branch: the entry and the id are written past the ends
// of the two slices, which grow over them only when the count was 0 (as
// count's word loop does). A branch there is mispredicted for about every
// distinct gram of a document, and the processor then waits for the
// gram's entry before it counts the next ones. The slices are held in
// locals, to their capacities, between the calls of the rare paths (a
// gram not in its first slot or new, a word that is not ASCII, and the
// whole word as one gram), and reserved word by word. The loops over a
// word's grams of one length are leaf functions (countShorts, countKeys)
// that write by pointer, without bounds checks: their variables then fit
// in registers, where in this function's loops a dozen of them were
// reloaded from the stack on every gram (8% less CPU for the command).
func (w *fitWorker) countWBWords(t string) {
	z := w.tok.an
	short, g := w.short, w.grams
	starts, ends := w.tok.starts, w.tok.ends
	span := z.cmax - z.cmin + 1
	ids, ni, tch, nt := w.rowAhead()
	for k, a := range starts {
		b := int(ends[k]) + 1 // past the padding space after the word
		if a < 0 {
			w.cur.ids, w.touched = ids[:ni], tch[:nt]
			w.countWord(t, int(^a)-1, b)
			ids, ni, tch, nt = w.rowAhead()
			continue
		}
		a := int(a) - 1        // the padding space before the word
		if b-a > maxFastWord { // room for its grams would grow with the word
			w.cur.ids, w.touched = ids[:ni], tch[:nt]
			w.countWord(t, a, b)
			ids, ni, tch, nt = w.rowAhead()
			continue
		}
		if need := (b - a) * span; len(ids)-ni < need || len(tch)-nt < need {
			w.cur.ids = slices.Grow(ids[:ni], need)
			w.touched = slices.Grow(tch[:nt], need)
			ids, ni, tch, nt = w.rowAhead()
		}
		for n := z.cmin; n <= z.cmax; n++ {
			if n >= b-a {
				w.cur.ids, w.touched = ids[:ni], tch[:nt]
				w.countGram(t, a, b)
				ids, ni, tch, nt = w.rowAhead()
				break
			}
			switch {
			case n <= 7:
				// The leaf loops stop at a gram they leave to the rare
				// paths (new, not in its first slot, or after the table
				// grew), with room past the ends of ids and tch.
				for o := a; o+n <= b; o++ {
					if !w.later {
						if n <= 2 {
							o, ni, nt = countShorts(short, t, o, b, n, ids, ni, tch, nt)
						} else {
							o, ni, nt = countKeys(g.slots, g.mask, t, o, b, n, ids, ni, tch, nt)
						}
						if o+n > b {
							break
						}
					}
					w.cur.ids, w.touched = ids[:ni], tch[:nt]
					w.countGram(t, o, o+n)
					ids, ni, tch, nt = w.rowAhead()
				}
			default:
				w.cur.ids, w.touched = ids[:ni], tch[:nt]
				for o := a; o+n <= b; o++ {
					w.addToRow(w.tableID(t[o : o+n]))
				}
				ids, ni, tch, nt = w.rowAhead()
			}
		}
	}
	w.cur.ids, w.touched = ids[:ni], tch[:nt]
}

// countShorts counts the ASCII n-grams (n 1 or 2) of t at o, o+1, …
// while they end by b, in their short entries, and returns the position
// of the first it leaves uncounted (met for the first time), or past the
// last, with the new lengths of ids and tch. ids and tch must have room
// for every gram from ni and nt on: it writes past those without bounds
// checks, so that its variables fit in registers.
func countShorts(short []shortGram, t string, o, b, n int, ids []int32, ni int, tch []int32, nt int) (int, int, int) {
	sp := unsafe.Pointer(unsafe.SliceData(short))
	tp := unsafe.Pointer(unsafe.StringData(t))
	ip := unsafe.Pointer(unsafe.SliceData(ids))
	cp := unsafe.Pointer(unsafe.SliceData(tch))
	for ; o+n <= b; o++ {
		i := uint(*(*byte)(unsafe.Add(tp, o)))
		if n == 2 {
			i = 128 + (i | uint(*(*byte)(unsafe.Add(tp, o+1)))<<7)
		}
		e := (*shortGram)(unsafe.Add(sp, i*8)) // i < 128+128*128: in bounds
		if e.id1 == 0 {
			break
		}
		v := e.n
		f := int((uint64(v) - 1) >> 63) // 1 when v is 0
		*(*int32)(unsafe.Add(cp, nt*4)) = int32(i)
		*(*int32)(unsafe.Add(ip, ni*4)) = e.id1 - 1
		nt += f
		ni += f
		e.n = v + 1
	}
	return o, ni, nt
}

// countKeys is countShorts for the n-grams of 3 to 7 bytes, in their
// gramTable slots: it stops at a gram not in its first slot (or new).
func countKeys(slots []gslot, mask int, t string, o, b, n int, ids []int32, ni int, tch []int32, nt int) (int, int, int) {
	sp := unsafe.Pointer(unsafe.SliceData(slots))
	tp := unsafe.Pointer(unsafe.StringData(t))
	ip := unsafe.Pointer(unsafe.SliceData(ids))
	cp := unsafe.Pointer(unsafe.SliceData(tch))
	kmask, ln := uint64(1)<<(8*n)-1, uint64(n)<<56
	for ; o+n <= b; o++ {
		// t lies in the arena, which holds 8 bytes of slack past it.
		key := *(*uint64)(unsafe.Add(tp, o))&kmask | ln
		j := uint(mix(key^wyp0, wyp1)) & uint(mask)
		sl := (*gslot)(unsafe.Add(sp, j*16)) // j ≤ mask: in bounds
		if sl.key != key {
			break
		}
		v := sl.n
		f := int((uint64(v) - 1) >> 63)
		*(*int32)(unsafe.Add(cp, nt*4)) = ^int32(j)
		*(*int32)(unsafe.Add(ip, ni*4)) = sl.id
		nt += f
		ni += f
		sl.n = v + 1
	}
	return o, ni, nt
}

// maxFastWord bounds the padded words countWBWords counts in its leaf
// loops, which need room for every gram of a word reserved first: a
// longer one (a URL, a blob of base64) is counted by countWord, whose row
// grows by the grams it meets, so that the room never grows with a word.
const maxFastWord = 4096

// rowAhead returns the row's ids and w.touched to their capacities, with
// their lengths, for countWBWords to write past their ends.
func (w *fitWorker) rowAhead() (ids []int32, ni int, touched []int32, nt int) {
	return w.cur.ids[:cap(w.cur.ids)], len(w.cur.ids), w.touched[:cap(w.touched)], len(w.touched)
}

// shortGram is the entry of an ASCII n-gram of 1 or 2 bytes in
// fitWorker.short: its local id + 1 (0: not met yet) and its count in the
// current document since the last flushGrams.
type shortGram struct {
	id1 int32
	n   uint32
}

// countGram counts the n-gram text[a:b] in the current document: in its
// short entry or gramTable slot, which it notes in w.touched on the
// gram's first count there, appending its id to the row when that is its
// first in the document. An ASCII gram of one or two bytes, a third of
// the grams of 1-3 and the most frequent, is its own index into w.short,
// with no hashing at all.
func (w *fitWorker) countGram(text string, a, b int) {
	if b-a > 7 {
		w.addToRow(w.tableID(text[a:b]))
		return
	}
	key := gramKey(text, a, b)
	if b-a <= 2 && key&0x8080 == 0 {
		i := key & 0x7f
		if b-a == 2 {
			i = 128 + (i | (key>>8&0x7f)<<7)
		}
		w.countShort(int(i), text, a, b)
		return
	}
	w.countKey(key, text, a, b)
}

// countShort counts the ASCII n-gram text[a:b] of 1 or 2 bytes, whose
// index in w.short is i.
func (w *fitWorker) countShort(i int, text string, a, b int) {
	e := &w.short[i]
	if e.n == 0 {
		w.firstShort(i, text, a, b)
	}
	e.n++
}

// firstShort is countShort for the first count of the entry since
// flushGrams: it enters a gram met for the first time, appends its id to
// the row when that is its first in the document, and notes the entry.
func (w *fitWorker) firstShort(i int, text string, a, b int) {
	e := &w.short[i]
	if e.id1 == 0 {
		e.id1 = w.table.appendTerm(w.keep(text[a:b])) + 1
		w.growSeen()
	}
	w.firstGram(e.id1 - 1)
	w.touched = append(w.touched, int32(i))
}

// countKey counts the n-gram text[a:b] (3 to 7 bytes, or 1 to 2 that are
// not ASCII), whose key is key, in its gramTable slot.
func (w *fitWorker) countKey(key uint64, text string, a, b int) {
	g := w.grams
	for i := int(mix(key^wyp0, wyp1)) & g.mask; ; i = (i + 1) & g.mask {
		sl := &g.slots[i]
		if sl.key == key {
			if sl.n == 0 {
				w.firstGram(sl.id)
				w.touched = append(w.touched, ^int32(i))
			}
			sl.n++
			return
		}
		if sl.key == 0 {
			w.newKey(i, key, text, a, b)
			return
		}
	}
}

// newKey enters the n-gram text[a:b] of key key, met for the first time,
// at slot i of the gramTable (where its probe ended) and counts it once.
func (w *fitWorker) newKey(i int, key uint64, text string, a, b int) {
	g := w.grams
	if g.full() {
		// Growing moves the slots that w.touched names: their counts go
		// to the seen entries first.
		w.flushGrams()
		w.later = true
		g.grow()
		i = g.slot(key)
	}
	id := w.table.appendTerm(w.keep(text[a:b]))
	g.slots[i] = gslot{key: key, id: id, n: 1}
	g.n++
	w.growSeen()
	w.firstGram(id)
	w.touched = append(w.touched, ^int32(i))
}

// firstGram appends id to the row unless the document has it already,
// which it can only have from an earlier piece or before a flushGrams.
func (w *fitWorker) firstGram(id int32) {
	if !w.later || w.seen[int(id)*w.stride] == 0 {
		w.cur.ids = append(w.cur.ids, id)
	}
}

// flushGrams adds the counts of the touched short entries and gramTable
// slots to the seen entries of their grams, and sets them back to 0.
func (w *fitWorker) flushGrams() {
	sn, st := w.seen, w.stride
	for _, i := range w.touched {
		if i >= 0 {
			e := &w.short[i]
			sn[int(e.id1-1)*st] += e.n
			e.n = 0
		} else {
			sl := &w.grams.slots[^i]
			sn[int(sl.id)*st] += sl.n
			sl.n = 0
		}
	}
	w.touched = w.touched[:0]
}

// rowFromGrams ends the current document's row, whose ids from start on
// are the grams of w.touched in the same order, when the seen entries hold
// none of its counts (w.later is false, and no gram went to them through
// addToRow: w.touched is as long as the row): it appends the counts of
// the touched entries to the row and sets them back to 0, and with totals
// adds them to the terms' totals, as flushGrams and add's last loop do
// but with no read or write of a count in a seen entry. It reports
// whether it did so; if not, the counts are still in the entries.
func (w *fitWorker) rowFromGrams(start int) bool {
	b := w.cur
	if w.later || len(w.touched) != len(b.ids)-start {
		return false
	}
	// The counts first, from the entries counting has just touched, then
	// the totals, whose seen entries are cache misses for the rare grams:
	// a loop of a few instructions, so that many of its loads are in
	// flight at once.
	// The exact counts go to the row's occ (TermCounter), else to
	// w.scratch, for the totals.
	vals := slices.Grow(b.vals, len(w.touched))
	occ := w.scratch[:0]
	if w.exact {
		occ = b.occ
	}
	occ = slices.Grow(occ, len(w.touched))
	n0 := len(occ)
	short, slots := w.short, w.grams.slots
	for _, i := range w.touched {
		var n uint32
		if i >= 0 {
			e := &short[i]
			n = e.n
			e.n = 0
		} else {
			sl := &slots[^i]
			n = sl.n
			sl.n = 0
		}
		vals = append(vals, float32(n))
		occ = append(occ, n)
	}
	w.touched = w.touched[:0]
	if w.stride == 3 {
		sn, lim := w.seen, maxTotal32
		row := occ[n0:]
		for k, id := range b.ids[start:] {
			n := row[k]
			e := (*[3]uint32)(sn[int(id)*3:])
			if e[1] >= lim || n > lim-e[2] {
				e[0] = n
				w.widenTotal(id, e)
				e[0] = 0
			} else {
				e[1]++
				e[2] += n
			}
		}
	}
	b.vals = vals
	if w.exact {
		b.occ = occ
	} else {
		w.scratch = occ
	}
	return true
}

// gramTable maps the key of an n-gram of up to 7 bytes (gramKey, never 0)
// to its local id, and holds its count in the current document. Open
// addressing with linear probing, at most 3/4 full; 16-byte slots.
type gramTable struct {
	slots []gslot
	mask  int
	n     int
}

// gslot is one gramTable entry; key 0 is an empty slot.
type gslot struct {
	key uint64
	id  int32
	n   uint32 // the count in the current document since the last flushGrams
}

// newGramTable returns an empty gram table.
func newGramTable() *gramTable {
	return &gramTable{slots: make([]gslot, 1<<12), mask: 1<<12 - 1}
}

// slot returns the slot of key, or the empty slot where it would go.
func (g *gramTable) slot(key uint64) int {
	i := int(mix(key^wyp0, wyp1)) & g.mask
	for {
		k := g.slots[i].key
		if k == key || k == 0 {
			return i
		}
		i = (i + 1) & g.mask
	}
}

// full reports whether one more key would take g past 3/4 full.
func (g *gramTable) full() bool { return 4*(g.n+1) > 3*len(g.slots) }

// grow doubles the slots and reinserts every key (with its count).
func (g *gramTable) grow() {
	old := g.slots
	g.slots = prefault.Make[gslot](2 * len(old))
	g.mask = len(g.slots) - 1
	for _, sl := range old {
		if sl.key != 0 {
			g.slots[g.slot(sl.key)] = sl
		}
	}
}
