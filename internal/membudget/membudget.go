package membudget

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Budget is the memory a command may use, in bytes, and where that figure
// came from.
type Budget struct {
	Bytes int64
	// Source names where Bytes came from: "--mem", "GOMEMLIMIT",
	// "cgroup memory.max", "cgroup memory.limit_in_bytes", "physical
	// memory" or "ulimit -v"; "none" when nothing bounds it (Bytes is
	// then math.MaxInt64).
	Source string
}

// String describes b for a person: "2.0 GiB (--mem)".
func (b Budget) String() string {
	if b.Bytes == math.MaxInt64 {
		return "unbounded"
	}
	return fmt.Sprintf("%s (%s)", Format(b.Bytes), b.Source)
}

// Format writes n bytes in binary units with one decimal: 512.0 MiB.
func Format(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// system are the limits Resolve and SoftLimit read, a variable so that
// tests can stand in for the machine.
var system = struct {
	getenv      func(string) string
	cgroup      func() (int64, string)
	physical    func() int64
	addressSpan func() uint64
}{os.Getenv, cgroupLimit, physicalMemory, addressSpaceLimit}

// Resolve returns the memory budget: mem (a --mem value, Parse) when not
// empty; else GOMEMLIMIT; else the cgroup's limit; else the smaller of the
// physical memory and the address-space limit. A bad mem or GOMEMLIMIT is
// an error naming it.
func Resolve(mem string) (Budget, error) {
	if mem != "" {
		n, err := Parse(mem)
		if err != nil {
			return Budget{}, fmt.Errorf("--mem: %w", err)
		}
		return Budget{n, "--mem"}, nil
	}
	if env := system.getenv("GOMEMLIMIT"); env != "" && env != "off" {
		n, err := parseGoMemLimit(env)
		if err != nil {
			return Budget{}, fmt.Errorf("GOMEMLIMIT=%q: %w", env, err)
		}
		return Budget{n, "GOMEMLIMIT"}, nil
	}
	if n, src := system.cgroup(); n > 0 {
		return Budget{n, src}, nil
	}
	b := Budget{math.MaxInt64, "none"}
	if n := system.physical(); n > 0 {
		b = Budget{n, "physical memory"}
	}
	if as := system.addressSpan(); as > 0 && as < uint64(b.Bytes) {
		b = Budget{int64(as), "ulimit -v"}
	}
	return b, nil
}

// runtimeReserve is about the address space a Go program on linux/amd64
// reserves besides its heap (page summaries, arena index, stacks). Measured
// with prlimit --as on train --model complement, 20 Newsgroups: 1e9 bytes
// fails with a 300 MiB soft limit and passes with 250 MiB.
const runtimeReserve = 768 << 20

// SoftLimit returns the Go runtime's soft memory limit for mem (a --mem
// value): mem when given; else ok false when GOMEMLIMIT is set (the
// runtime applied it at start); else under a cgroup limit, 90% of it,
// so that the collector works harder before the kernel kills the
// process; and under an address-space limit, that limit less the address space
// the runtime reserves beyond its heap (runtimeReserve), and at least a
// quarter of it, so that the collector works harder before the limit is
// reached instead of the runtime dying on it; else no limit
// (math.MaxInt64).
func SoftLimit(mem string) (limit int64, ok bool, err error) {
	if mem != "" {
		n, err := Parse(mem)
		if err != nil {
			return 0, false, fmt.Errorf("--mem: %w", err)
		}
		return n, true, nil
	}
	if system.getenv("GOMEMLIMIT") != "" {
		return 0, false, nil
	}
	limit = math.MaxInt64
	if n, _ := system.cgroup(); n > 0 {
		limit = n / 10 * 9
	}
	if as := system.addressSpan(); as > 0 && as < math.MaxInt64 {
		limit = min(limit, max(int64(as)/4, int64(as)-runtimeReserve))
	}
	return limit, true, nil
}

// Apply sets the runtime's soft memory limit (debug.SetMemoryLimit) to
// SoftLimit(mem), or leaves GOMEMLIMIT's in place.
func Apply(mem string) error {
	limit, ok, err := SoftLimit(mem)
	if err != nil || !ok {
		return err
	}
	debug.SetMemoryLimit(limit)
	return nil
}

// CountTables bounds the count tables of a streamed count
// (counts.Options.Mem): with n-grams the terms counted grow with the
// corpus, and past half of the bound the tables spill to sorted runs on
// disk, merged at the end, where only the terms pruning keeps are held. It
// is a quarter of the runtime's memory limit (Apply), at most 512 MiB and
// at least 16 MiB.
func CountTables() int64 {
	mem := int64(512 << 20)
	if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 {
		mem = min(mem, limit/4)
	}
	return max(mem, 16<<20)
}

// ReadGCPercent is the collector's target (debug.SetGCPercent) while a
// corpus streams into a vectorizer that keeps none of its texts
// (corpus.Options.DropTexts): the live heap is then the count tables and
// rows alone, small beside the texts that pass through, so letting the
// heap grow to 3× of it rather than 2× between collections halves their
// number and their page faults at a peak below that of keeping the texts
// (train --model multinomial, 20 Newsgroups: 133 MB against 147 MB, 7%
// less CPU; see docs/speed.md).
const ReadGCPercent = 200

// RelaxGC sets the collector's target to ReadGCPercent, unless GOGC is set
// (the user's choice stands), and returns the function that restores it.
func RelaxGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(ReadGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// Parse reads a size such as 800M, 1.5GiB or 1073741824: a number > 0,
// optionally followed by K, M, G or T (binary units, 1024^k; "KiB", "KB"
// and "K" are the same) with an optional "B".
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "KMGTkmgtiIbB")
	unit := strings.ToUpper(strings.TrimSpace(t[len(num):]))
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, "B"), "I")
	shift := 0
	if unit != "" {
		shift = strings.Index("KMGT", unit) + 1
	}
	if len(unit) > 1 || (unit != "" && shift == 0) {
		return 0, fmt.Errorf("%q: unknown unit (want K, M, G or T, e.g. 800M or 2GiB)", s)
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(x) || x <= 0 {
		return 0, fmt.Errorf("%q: want a size > 0, e.g. 800M or 2GiB", s)
	}
	x *= math.Pow(1024, float64(shift))
	if x >= math.MaxInt64 {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return int64(x), nil
}

// parseGoMemLimit reads GOMEMLIMIT as the runtime does: a number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB.
func parseGoMemLimit(s string) (int64, error) {
	t := strings.TrimSpace(s)
	for i, u := range []string{"TiB", "GiB", "MiB", "KiB", "B"} {
		if num, ok := strings.CutSuffix(t, u); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n < 0 {
				break
			}
			shift := uint(10 * (4 - i))
			if n > math.MaxInt64>>shift {
				return math.MaxInt64, nil
			}
			return n << shift, nil
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want bytes with an optional unit B, KiB, MiB, GiB or TiB")
	}
	return n, nil
}

// RowBlocks bounds the rows a streamed dual fit (train --stream --model
// svm|nblr) holds at once: its block of rows, decoded, and the block's
// bytes. Rows have as many terms as their documents have distinct 1-2
// grams, so a block of a fixed number of rows grows with the documents'
// length: 65,536 rows of 300 words took about 450 MB. It is a quarter of
// the runtime's memory limit (Apply), at most 256 MiB and at least 16 MiB.
func RowBlocks() int64 {
	mem := int64(256 << 20)
	if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 {
		mem = min(mem, limit/4)
	}
	return max(mem, 16<<20)
}

// TermTables bounds the term tables of a streamed count that keeps its
// terms in memory (train --stream of an NB or centroid model without
// --hash-bits), with the model they make: past it, the count falls back
// to hashing. It is a quarter of the runtime's memory limit (Apply), so
// that --mem raises it, 512 MiB when no limit is set, and at least
// 16 MiB.
func TermTables() int64 {
	mem := int64(512 << 20)
	if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 {
		mem = limit / 4
	}
	return max(mem, 16<<20)
}
