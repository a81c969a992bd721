//go:build !amd64

package vectorize

// scanBlocks sets word[i], upper[i] and high[i] to the masks of the i-th
// 64-byte block of b (len(b) a multiple of 64; see Tokenizer.scan), and
// returns the OR of the high masks and of the upper masks.
func scanBlocks(b []byte, word, upper, high []uint64) (anyHigh, anyUpper uint64) {
	return scanBlocksGo(b, word, upper, high)
}
