package model

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file holds what format version 4 adds to the terms section of a
// hashed model (Settings.HashBits > 0): after each term's frequencies, the
// term names its bucket holds (vectorize.Vocabulary.Names).

// hashedVersion is the format version of a model with feature hashing.
const hashedVersion = 4

// namesLen returns the bytes vectorize.AppendNames writes for names.
func namesLen(names []vectorize.TermCount) uint64 {
	n := uint64(uvarintLen(uint64(len(names))))
	for _, x := range names {
		n += uint64(uvarintLen(uint64(len(x.Term))) + len(x.Term) + uvarintLen(uint64(x.Count)))
	}
	return n
}

// bucketNames returns the names stored for term i of m, none when m's
// vocabulary has no names.
func (m *Model) bucketNames(i int) []vectorize.TermCount {
	if i < len(m.Vocab.Names) {
		return m.Vocab.Names[i]
	}
	return nil
}

// names reads the names of term i's bucket (vectorize.AppendNames).
func (c *cursor) names(i int) ([]vectorize.TermCount, error) {
	k, n := binary.Uvarint(c.b)
	if n <= 0 || k > vectorize.MaxBucketNames {
		return nil, fmt.Errorf("term %d: bad number of bucket names", i)
	}
	c.b = c.b[n:]
	out := make([]vectorize.TermCount, k)
	for j := range out {
		t, err := c.term(i)
		if err != nil {
			return nil, err
		}
		cnt, n := binary.Uvarint(c.b)
		if n <= 0 || cnt == 0 || cnt > 1<<62 {
			return nil, fmt.Errorf("term %d: bad bucket name count", i)
		}
		c.b = c.b[n:]
		out[j] = vectorize.TermCount{Term: t, Count: int64(cnt)}
	}
	return out, nil
}

// checkHashVersion refuses hashing in a file of a version before 4, which
// a reader of that version would misread as a plain vocabulary.
func checkHashVersion(h *fileHeader, v int) error {
	if h.Settings.HashBits != 0 && v < hashedVersion {
		return fmt.Errorf("header: hash_bits %d in a format version %d file (hashing needs version %d)", h.Settings.HashBits, v, hashedVersion)
	}
	return nil
}

// buckets returns 2^HashBits for a hashed model, else 0.
func (m *Model) buckets() int {
	if m.Vocab == nil || m.Vocab.Settings.HashBits <= 0 {
		return 0
	}
	return 1 << m.Vocab.Settings.HashBits
}

// namesSuffix renders the names of a bucket for a table: " (space 120 |
// spaces 31)", or "" without names.
func namesSuffix(names []vectorize.TermCount) string {
	if len(names) == 0 {
		return ""
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n.Term + " " + strconv.FormatInt(n.Count, 10)
	}
	return " (" + strings.Join(parts, " | ") + ")"
}
