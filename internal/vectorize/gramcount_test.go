package vectorize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refCountChars is countChars as it was before counting by gramTable
// slots (every n-gram counted in w.seen as it is met), the reference of
// TestGramCountsMatchEveryGram; refCountGram is its countGram.
type refWorker struct {
	*fitWorker
	refGrams *pairTable
	refShort []int32
}

func (w *refWorker) refCountChars(text string) {
	tok := w.tok
	z := tok.an
	tok.arena = tok.arena[:0]
	p := tok.prepare(text, tok.lower)
	if w.refGrams == nil {
		w.refGrams, w.refShort = newPairTable(), make([]int32, 128+128*128)
	}
	if z.kind == "char" {
		t, offs := tok.charText(p)
		nr := len(offs) - 1
		for n := z.cmin; n <= z.cmax && n <= nr; n++ {
			for i := 0; i+n <= nr; i++ {
				w.refCountGram(t, int(offs[i]), int(offs[i+n]))
			}
		}
		return
	}
	t, offs := tok.charWBText(p)
	for k, ws := range tok.starts {
		a := int(ws) - 1
		wl := int(tok.ends[k]) + 1 - a
		for n := z.cmin; n <= z.cmax; n++ {
			w.refCountGram(t, int(offs[a]), int(offs[a+min(n, wl)]))
			if n >= wl {
				break
			}
			for o := 1; o+n <= wl; o++ {
				w.refCountGram(t, int(offs[a+o]), int(offs[a+o+n]))
			}
		}
	}
}

func (w *refWorker) refCountGram(text string, a, b int) {
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
		e := &w.refShort[i]
		if *e == 0 {
			*e = w.table.appendTerm(w.keep(text[a:b])) + 1
			w.growSeen()
		}
		w.addToRow(*e - 1)
		return
	}
	j, ok := w.refGrams.find(key)
	if !ok {
		id := w.table.appendTerm(w.keep(text[a:b]))
		w.growSeen()
		w.refGrams.insertAt(j, key, id)
		j = int(id)
	}
	w.addToRow(int32(j))
}

// gramRows counts texts with a fresh worker under s, through add (and so
// countChars) or, with ref, refCountChars, and returns its rows (ids,
// counts, ends) and its terms by local id. With totals, the worker sums
// the terms' totals as a pooling TermCounter does, and they are checked
// against the rows'.
func gramRows(t *testing.T, s Settings, texts []string, ref, totals bool) (b *batch, terms []string) {
	w := &refWorker{fitWorker: newFitWorker(s, 0)}
	if totals {
		w.countTotals()
	}
	b = &batch{}
	w.cur = b
	for _, text := range texts {
		if !ref {
			w.add(text)
			continue
		}
		start := len(b.ids)
		w.refCountChars(text)
		w.tok.forget()
		for _, i := range b.ids[start:] {
			b.vals = append(b.vals, float32(w.seen[i]))
			w.seen[i] = 0
		}
		b.end = append(b.end, int32(len(b.ids)))
	}
	if totals {
		df := make([]int64, w.table.len())
		occ := make([]int64, w.table.len())
		for j, id := range b.ids {
			df[id]++
			occ[id] += int64(b.vals[j])
		}
		for id := range df {
			if d, o := w.total(int32(id)); d != df[id] || o != occ[id] {
				t.Fatalf("term %q: totals %d docs %d occurrences, rows %d %d", w.table.terms[id], d, o, df[id], occ[id])
			}
		}
	}
	return b, w.table.terms
}

// randomWordText returns a text of random words drawn from a small pool
// (so that words repeat, within a text and across texts) and from random
// runes: ASCII in both cases, accents, İ and Σ, CJK, emoji, combining
// marks, invalid bytes, separated by white space of every kind.
func randomWordText(r *rand.Rand) string {
	pool := []string{"the", "The", "THE", "movie", "film,", "café", "CAFÉ", "naïve", "İstanbul", "ΣΟΦΊΑ",
		"東京都", "の", "😀👍", "e\u0301", "a", "I", "x\xff\xfey", "\xe6\x97", "日本語テキスト", "supercalifragilisticexpialidocious-and-then-some-more-letters-to-pass-64-bytes"}
	runes := []rune("aAbBzZ09_.,;'\"-éÉßẞıİσΣς日本語한국어ไทย\u0301\u200b😀\ufffd")
	spaces := []string{" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u3000", "\u00a0", "\u0085", "\x1c", "\u2028", "\v\f"}
	var sb strings.Builder
	for n := r.IntN(40); n > 0; n-- {
		if r.IntN(4) == 0 {
			for k := 1 + r.IntN(12); k > 0; k-- {
				sb.WriteRune(runes[r.IntN(len(runes))])
			}
		} else {
			sb.WriteString(pool[r.IntN(len(pool))])
		}
		sb.WriteString(spaces[r.IntN(len(spaces))])
	}
	if r.IntN(3) == 0 {
		sb.WriteString(pool[r.IntN(len(pool))]) // no white space at the end
	}
	return sb.String()
}

// TestGramCountsMatchEveryGram checks that counting character n-grams in
// their gramTable slots and short entries, then in w.seen once per
// document (countChars), gives exactly what counting every n-gram in
// w.seen as it is met did (refCountChars): the same rows, in the same
// order, with the same counts, and the same local ids, on random Unicode
// text, for char and char_wb, several ranges, with and without
// lower-casing and NFKC, with totals (a pooling TermCounter) and without,
// and with documents long enough to be counted in pieces.
func TestGramCountsMatchEveryGram(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 3))
	texts := make([]string, 200)
	for i := range texts {
		texts[i] = randomWordText(r)
	}
	texts = append(texts, "", " ", "\t\n", "a", " a ", "ab  ab\tAB")
	// An ASCII word past maxFastWord (countWord counts it), between others.
	blob := make([]byte, 3*maxFastWord)
	for i := range blob {
		blob[i] = "abcdefghijklmnopqrstuvwxyz0123456789+/"[r.IntN(38)]
	}
	texts = append(texts, "before "+string(blob)+" after")
	// A document past longDocument, which add counts in pieces (char_wb).
	var long strings.Builder
	for long.Len() <= longDocument {
		long.WriteString(randomWordText(r))
		long.WriteByte(' ')
	}
	type config struct {
		kind        string
		lo, hi      int
		lower, long bool
		nfkc        string
	}
	var configs []config
	for _, kind := range []string{"char_wb", "char"} {
		for _, c := range [][2]int{{1, 3}, {2, 5}, {1, 1}, {3, 10}} {
			for _, p := range []struct {
				lower bool
				nfkc  string
			}{{true, ""}, {false, ""}, {true, "nfkc"}} {
				long := kind == "char_wb" && c == [2]int{1, 3} && p.lower && p.nfkc == ""
				configs = append(configs, config{kind, c[0], c[1], p.lower, long, p.nfkc})
			}
		}
	}
	for _, c := range configs {
		docs := texts
		if c.long {
			docs = append(slices.Clip(texts), long.String(), texts[0])
		}
		for _, totals := range []bool{false, true} {
			s := charSettings(c.kind, c.lo, c.hi)
			s.Lowercase, s.Normalize = c.lower, c.nfkc
			got, gotTerms := gramRows(t, s, docs, false, totals)
			want, wantTerms := gramRows(t, s, docs, true, false)
			if !slices.Equal(gotTerms, wantTerms) {
				t.Fatalf("%+v totals %v: %d terms, want %d", c, totals, len(gotTerms), len(wantTerms))
			}
			if len(got.end) != len(want.end) {
				t.Fatalf("%+v totals %v: %d rows, want %d", c, totals, len(got.end), len(want.end))
			}
			for d := range got.end {
				lo, hi := got.row(d)
				wlo, whi := want.row(d)
				if !slices.Equal(got.ids[lo:hi], want.ids[wlo:whi]) || !slices.Equal(got.vals[lo:hi], want.vals[wlo:whi]) {
					t.Fatalf("%+v totals %v: text %d %.80q: row %v %v, want %v %v", c, totals, d, docs[d],
						got.ids[lo:hi], got.vals[lo:hi], want.ids[wlo:whi], want.vals[wlo:whi])
				}
			}
		}
	}
}

// FuzzGramCounts checks countChars against refCountChars (see
// TestGramCountsMatchEveryGram) on any two documents and range: the same
// rows, counts and local ids.
func FuzzGramCounts(f *testing.F) {
	f.Add("Hello  wörld\t\tİΣ 日本語 a", "x\xffy HELLO", uint8(1), uint8(2), true)
	f.Add("ab ab", "", uint8(3), uint8(3), false)
	f.Add("The QUICK brown-Foxes JUMPED\x01over\x7fLAZY dogs,,, AZ@[`{zZ  Überhaupt éTÉ\x1cend", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", uint8(0), uint8(2), true)
	f.Fuzz(func(t *testing.T, a, b string, lo, span uint8, lower bool) {
		cmin := int(lo)%MaxCharNGram + 1
		cmax := min(cmin+int(span)%4, MaxCharNGram)
		for _, kind := range []string{"char_wb", "char"} {
			s := charSettings(kind, cmin, cmax)
			s.Lowercase = lower
			got, gotTerms := gramRows(t, s, []string{a, b, a}, false, true)
			want, wantTerms := gramRows(t, s, []string{a, b, a}, true, false)
			if !slices.Equal(gotTerms, wantTerms) || !slices.Equal(got.end, want.end) ||
				!slices.Equal(got.ids, want.ids) || !slices.Equal(got.vals, want.vals) {
				t.Fatalf("%s %d,%d: rows %v %v %v terms %q, want %v %v %v %q", kind, cmin, cmax,
					got.end, got.ids, got.vals, gotTerms, want.end, want.ids, want.vals, wantTerms)
			}
		}
	})
}

// TestLongWordRoomBounded: the room char_wb's leaf loops reserve for a
// word's grams does not grow with the word: after a 1 MiB word of one
// letter (3 distinct grams) the touched list stays small, and the row
// keeps the room add gives any document (an id per byte of its text),
// not the word's 3 grams per byte.
func TestLongWordRoomBounded(t *testing.T) {
	doc := "x " + strings.Repeat("a", 1<<20) + " y"
	w := newFitWorker(charSettings("char_wb", 1, 3), 0)
	w.process(&batch{first: 0}, []string{doc})
	if c := cap(w.touched); c > 1<<16 {
		t.Errorf("touched has room for %d grams after a word of 2^20 bytes, want it bounded by the word's distinct grams", c)
	}
	if c := cap(w.cur.ids); c > len(doc)+1<<16 {
		t.Errorf("the row has room for %d ids after a document of %d bytes", c, len(doc))
	}
}

// TestLoweredRoomBounded: a fit worker lowers a non-ASCII text into room
// of its own, kept for the next text only while it is small (the counts
// are checked against the analyzer's grams by TestGramCountsMatchEveryGram
// and the scikit-learn parity tests).
func TestLoweredRoomBounded(t *testing.T) {
	w := newFitWorker(charSettings("char_wb", 1, 3), 0)
	small := "Émile ÉTAIT là"
	w.process(&batch{first: 0}, []string{small})
	if cap(w.lowered) == 0 || cap(w.lowered) > maxLoweredRoom {
		t.Fatalf("room %d after a small text, want it kept", cap(w.lowered))
	}
	// One word (a text with white space is counted in pieces of 256 KiB).
	huge := strings.Repeat("ÇaVA", (maxLoweredRoom/5)+1)
	w.process(&batch{first: 1}, []string{huge})
	if w.lowered != nil {
		t.Errorf("room %d kept after a text of %d bytes, want none past %d", cap(w.lowered), len(huge), maxLoweredRoom)
	}
}
