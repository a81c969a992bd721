// Package membudget owns nbtext's memory budget: how much memory a command
// may use, and the Go runtime's soft limit that follows from it.
//
// The budget is, in order of precedence: --mem (Parse reads its sizes);
// else GOMEMLIMIT; else the limit of the process's cgroup (v2 memory.max,
// v1 memory.limit_in_bytes); else the smaller of the machine's physical
// memory and the address-space limit (RLIMIT_AS, ulimit -v). Resolve
// returns it with the source it came from, which commands print so that a
// user can see why they streamed. Apply sets the runtime's soft limit
// (debug.SetMemoryLimit) from the same sources; CountTables bounds the
// count tables of a streamed count by that limit; RelaxGC lowers the
// collector's work while a corpus streams through.
//
// A soft limit makes the collector work harder near it; it cannot make a
// command fit in less memory than its live data. Deciding to hold less
// (to stream) is the caller's business, with the budget in hand.
package membudget
