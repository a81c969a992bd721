package counts

import (
	"fmt"
	"slices"
)

// Subtract returns a minus b: the counts of a's documents without b's,
// which must be some of them (counted with the same settings). It is the
// inverse of Merge: Subtract(Merge(a, b), b) equals a, field for field,
// and so fits the same model. A cell left with no documents goes, a term
// left with no cells goes, and so does a class left with no documents
// (the classes of the result are those of a that keep documents).
//
// b cannot be shown to be a subset of a's documents in general (a
// document counted once looks like any other with the same terms), but a
// b that is not makes some count negative, or leaves a cell with more
// occurrences than documents allow, and that is an error naming aName and
// bName, the term and the class. Only round-one counts subtract: the
// weighted sums of round two follow a vocabulary that subtracting
// documents changes. Counts with feature hashing do not either: the names
// of a bucket are the most frequent few, which a subtraction cannot take
// back.
func Subtract(a, b *Counts, aName, bName string) (*Counts, error) {
	if err := Compatible(&a.Header, &b.Header, aName, bName); err != nil {
		return nil, err
	}
	if a.Weighted() {
		return nil, fmt.Errorf("%s: round-two counts (counted with --vocab) cannot be subtracted: their sums follow a vocabulary that removing documents changes", aName)
	}
	if hashed(&a.Header) {
		return nil, fmt.Errorf("%s: counts with feature hashing (hash_bits %d) cannot be subtracted: a bucket keeps only its most frequent names", aName, a.Settings.HashBits)
	}
	// b's classes in a, and the documents each class keeps.
	bc := make([]int32, len(b.Classes))
	docs := slices.Clone(a.ClassDocs)
	for j, name := range b.Classes {
		k, ok := slices.BinarySearch(a.Classes, name)
		if !ok {
			return nil, fmt.Errorf("%s: class %q is not in %s: its documents cannot have been counted there", bName, name, aName)
		}
		bc[j] = int32(k)
		if b.ClassDocs[j] > docs[k] {
			return nil, fmt.Errorf("%s: class %q has %d documents, more than the %d of %s", bName, name, b.ClassDocs[j], docs[k], aName)
		}
		docs[k] -= b.ClassDocs[j]
	}
	// The classes that keep documents, renumbered.
	out := Header{Settings: a.Settings}
	remap := make([]int32, len(a.Classes))
	for k, name := range a.Classes {
		remap[k] = -1
		if docs[k] > 0 {
			remap[k] = int32(len(out.Classes))
			out.Classes = append(out.Classes, name)
			out.ClassDocs = append(out.ClassDocs, docs[k])
		}
	}
	if len(out.Classes) == 0 {
		return nil, fmt.Errorf("%s removes every document of %s", bName, aName)
	}
	dst := newMemSink(out)
	var cells []Cell
	j := 0 // b's next term
	for i, term := range a.Terms {
		cells = append(cells[:0], a.Row(i)...)
		if j < len(b.Terms) && b.Terms[j] < term {
			return nil, fmt.Errorf("%s: term %q is not in %s: its documents cannot have been counted there", bName, b.Terms[j], aName)
		}
		if j < len(b.Terms) && b.Terms[j] == term {
			var err error
			if cells, err = subtractRow(cells, b.Row(j), bc, a, term, aName, bName); err != nil {
				return nil, err
			}
			j++
		}
		kept := cells[:0]
		for _, x := range cells {
			if x.Docs == 0 {
				continue
			}
			if k := x.Class; remap[k] < 0 {
				// A class with no documents left cannot hold the term.
				return nil, fmt.Errorf("%s: term %q keeps %d documents of class %q, which %s empties: %s names documents %s did not count", aName, term, x.Docs, a.Classes[k], bName, bName, aName)
			}
			x.Class = remap[x.Class]
			kept = append(kept, x)
		}
		if len(kept) > 0 {
			if err := dst.add(term, kept); err != nil {
				return nil, err
			}
		}
	}
	if j < len(b.Terms) {
		return nil, fmt.Errorf("%s: term %q is not in %s: its documents cannot have been counted there", bName, b.Terms[j], aName)
	}
	return dst.c, nil
}

// subtractRow subtracts the cells sub of a term of b (class ids of b,
// mapped to a's by bc) from cells, a's cells of the same term, in place.
func subtractRow(cells, sub []Cell, bc []int32, a *Counts, term, aName, bName string) ([]Cell, error) {
	i := 0
	for _, y := range sub {
		k := bc[y.Class]
		for i < len(cells) && cells[i].Class < k {
			i++
		}
		if i == len(cells) || cells[i].Class != k {
			return nil, fmt.Errorf("%s: term %q is in %d documents of class %q, in none of %s", bName, term, y.Docs, a.Classes[k], aName)
		}
		x := &cells[i]
		if y.Docs > x.Docs || y.Occ > x.Occ {
			return nil, fmt.Errorf("%s: term %q is in %d documents of class %q (%d occurrences), more than the %d (%d) of %s", bName, term, y.Docs, a.Classes[k], y.Occ, x.Docs, x.Occ, aName)
		}
		x.Docs -= y.Docs
		x.Occ -= y.Occ
		if x.Occ < x.Docs || (x.Docs == 0) != (x.Occ == 0) {
			return nil, fmt.Errorf("%s: term %q of class %q would keep %d occurrences in %d documents: %s names documents %s did not count", bName, term, a.Classes[k], x.Occ, x.Docs, bName, aName)
		}
	}
	return cells, nil
}
