package counts

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestReplayDamage: round two from a damaged row cache fails with "a
// damaged row" when a row is cut or holds a varint that never ends, and
// never panics, whatever bytes are changed; of local ids or, hashed, of
// buckets. (Bytes 0xff over hashed ids can make ids of buckets, each a
// valid id: such damage is counts of another cache, as random bytes.)
func TestReplayDamage(t *testing.T) {
	texts, labels := docs(200, 31)
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 240 {
		if trial == 120 {
			s.HashBits = 16
		}
		c := counter(t, s, nil, texts, labels, Options{Workers: 1, Replay: true, TempDir: t.TempDir()})
		v, _, err := c.Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		sg := &c.segments[0]
		var chs []*chunk
		for p := range sg.chunks {
			for j := range sg.chunks[p] {
				chs = append(chs, &sg.chunks[p][j])
			}
		}
		ch := chs[rng.IntN(len(chs))]
		off := ch.off + rng.Int64N(ch.n)
		mustFail := true
		switch trial % 3 {
		case 0: // the chunk loses its last bytes: its last row is cut
			ch.n -= 1 + rng.Int64N(min(ch.n, 8))
		case 1: // bytes 0xff: a varint that never ends, the codes of 4-byte ids, or ids past the segment's terms or buckets
			if _, err := sg.f.WriteAt([]byte(strings.Repeat("\xff", maxRowVarint+1)), min(off, ch.off+ch.n-maxRowVarint-1)); err != nil {
				t.Fatal(err)
			}
			mustFail = s.HashBits == 0
		case 2: // random bytes: a failure, or counts of another cache
			b := make([]byte, 1+rng.IntN(4))
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			if _, err := sg.f.WriteAt(b, min(off, ch.off+ch.n-int64(len(b)))); err != nil {
				t.Fatal(err)
			}
			mustFail = false
		}
		c2, err := c.RoundTwo(v)
		if err == nil {
			_, err = c2.Counts()
			c2.Close()
		}
		switch {
		case err != nil && !strings.Contains(err.Error(), "a damaged row"):
			t.Errorf("trial %d: %v, want a damaged row", trial, err)
		case err == nil && mustFail:
			t.Errorf("trial %d: no error", trial)
		}
		c.Close()
	}
}
