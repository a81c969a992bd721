// Package synth generates seeded synthetic labelled corpora for the scale
// benchmarks (make bench-scale): documents of Zipf-distributed words, each
// class mixing the common distribution with a skewed one of its own, over a
// fixed vocabulary or, following Heaps' law, one that keeps growing. It is
// a development tool, not part of nbtext's commands.
//
// Words are drawn by rank from a power law, the continuous Zipf law
// P(R > r) = (1 + r)^(1-s) (s > 1) by inversion, one uniform number and
// one math.Pow per word, rounded down to a whole rank: about 5 times
// faster than math/rand/v2's discrete Zipf, which rejects. With a fixed
// vocabulary of V words the law is truncated to ranks below V; with
// Heaps, ranks are unbounded, so the number of distinct words in n tokens
// grows like n^(1/s), as in natural text. A fraction ClassShare of each
// document's words comes from its class's own ranking (the common ranks
// shifted by a class offset), so the classes can be learned. Word ids are
// spelled as lower-case letters after an "x" (at least 2 word characters,
// so every word is one token of nbtext's tokenizer). Everything follows
// from Seed: the same Config gives the same bytes.
package synth
