package counts

// The row cache's varints (replay.go) are encoded and decoded by the two
// functions below rather than by encoding/binary, whose calls the
// compiler does not inline: when every term of a row was a varint, a call
// per term, in both rounds, was about a tenth of train --stream's CPU
// time (perf: counts.next 5.6%, cacheWriter.add 5.8% on 10^5 synthetic
// documents).

// maxRowVarint is the most bytes a varint of the row cache takes: every
// value in it (a class id, a row's byte length and numbers of terms, a
// count) is below 2^35.
const maxRowVarint = 5

// putUvarint writes x (< 2^35) as a varint at b[i:], which has room for
// maxRowVarint bytes, and returns the index after it. The encoding is
// encoding/binary's.
func putUvarint(b []byte, i int, x uint64) int {
	for x >= 0x80 {
		b[i] = byte(x) | 0x80
		x >>= 7
		i++
	}
	b[i] = byte(x)
	return i + 1
}

// uvarint decodes the varint at b[i:] and returns it and the index after
// it, or −1 for an index when b ends inside it or it is longer than
// maxRowVarint bytes (a damaged cache), and for an index of −1, so that
// decodes can be chained and checked once.
func uvarint(b []byte, i int) (uint64, int) {
	if uint(i) < uint(len(b)) && b[i] < 0x80 { // most varints of a row
		return uint64(b[i]), i + 1
	}
	var x uint64
	for s := uint(0); s < 7*maxRowVarint; s += 7 {
		if uint(i) >= uint(len(b)) {
			return 0, -1
		}
		c := b[i]
		i++
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return x, i
		}
	}
	return 0, -1
}
