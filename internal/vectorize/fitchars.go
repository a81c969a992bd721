package vectorize

import (
	"encoding/binary"
	"unsafe"
)

// This file holds Fit's counting of character n-grams (Analysis.Analyzer
// char and char_wb), by hash rather than by string: every n-gram is a
// window of the text the tokenizer lays out (charText, charWBText), and one
// of at most 7 bytes, nearly all of them, is looked up by its bytes packed
// with its length into a uint64 key: one 8-byte load, a mask and a probe of
// a pairTable, with no string made and no bytes compared. A gram's text is
// copied once, when the worker first meets it. Longer grams go through the
// term table by their text. The terms, and so the vocabulary, are those of
// Tokenizer.Terms (TestCharVocabularyMatchesScikitLearn).

// gramKey packs the n-gram text[a:b] (b−a ≤ 7) with its length: two grams
// have the same key exactly when they have the same bytes.
func gramKey(text string, a, b int) uint64 {
	// text lies in the arena, which holds 8 bytes of slack past it.
	x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(text[a:]), 8))
	n := uint(b - a)
	return x&(1<<(8*n)-1) | uint64(n)<<56
}

// countChars is fitWorker.count for the character analyzers (without
// hashing and field terms, which a character analyzer does not take).
func (w *fitWorker) countChars(text string) {
	tok := w.tok
	z := tok.an
	tok.arena = tok.arena[:0]
	p := tok.prepare(text, tok.lower)
	if w.grams == nil {
		w.grams, w.short = newPairTable(), make([]int32, 128+128*128)
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
	t, offs := tok.charWBText(p)
	for k, ws := range tok.starts {
		a := int(ws) - 1               // the padding space before the word
		wl := int(tok.ends[k]) + 1 - a // the padded word's runes
		for n := z.cmin; n <= z.cmax; n++ {
			w.countGram(t, int(offs[a]), int(offs[a+min(n, wl)]))
			if n >= wl {
				break
			}
			for o := 1; o+n <= wl; o++ {
				w.countGram(t, int(offs[a+o]), int(offs[a+o+n]))
			}
		}
	}
}

// countGram counts the n-gram text[a:b] in the current document's row.
// An ASCII gram of one or two bytes, a third of the grams of 1-3 and the
// most frequent, is its own index into w.short, with no hashing at all.
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
		e := &w.short[i]
		if *e == 0 {
			*e = w.table.appendTerm(w.keep(text[a:b])) + 1
			w.growSeen()
		}
		w.addToRow(*e - 1)
		return
	}
	j, ok := w.grams.find(key)
	if !ok {
		id := w.table.appendTerm(w.keep(text[a:b]))
		w.growSeen()
		w.grams.insertAt(j, key, id)
		j = int(id)
	}
	w.addToRow(int32(j))
}
