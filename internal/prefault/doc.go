// Package prefault owns how a large fresh allocation first meets the
// kernel: Make returns a zeroed slice whose pages have each been written
// once, so that no page of it is first read.
//
// Memory the Go runtime takes fresh from the operating system is not
// cleared again: it is zero because the kernel maps each page on first
// access. A first read maps the kernel's shared zero page; the first
// write after it copies that page and must flush the translation caches
// of every core running the process, an interrupt sent to each of them.
// A first write instead maps a private zeroed page directly, without the
// copy or the interrupts. Hash tables (which probe before they insert),
// accumulators (which read a cell before adding to it) and the loops that
// load cells ahead of updating them all read first; profiles of
// 20 Newsgroups training showed a fifth of the CPU time in those copies
// and interrupts, on two cores.
//
// Touching costs one store per page, and nothing where the memory was
// already in use (the runtime then clears it with writes, and Make's
// stores hit cached lines). It makes every page of the slice resident at
// once: use it where the slice will be written all over, not for sparse
// arrays of which most pages are never written.
//
// prefault imports no other package of nbtext.
package prefault
