package vectorize

// scanBlocks sets word[i], upper[i] and high[i] to the masks of the i-th
// 64-byte block of b (len(b) a multiple of 64; see Tokenizer.scan), and
// returns the OR of the high masks and of the upper masks: scanBlocksGo's
// results, from scanBlocksSSE2.
func scanBlocks(b []byte, word, upper, high []uint64) (anyHigh, anyUpper uint64) {
	n := len(b) / 64
	if n == 0 {
		return 0, 0
	}
	_, _, _ = word[n-1], upper[n-1], high[n-1] // the kernel writes n of each
	return scanBlocksSSE2(&b[0], n, &word[0], &upper[0], &high[0])
}

// scanBlocksSSE2 classifies n 64-byte blocks from b with packed SSE2
// (baseline on amd64), 16 bytes a register: scan_amd64.s.
//
//go:noescape
func scanBlocksSSE2(b *byte, n int, word, upper, high *uint64) (anyHigh, anyUpper uint64)
