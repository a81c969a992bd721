package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{
		"1073741824": 1 << 30,
		"800M":       800 << 20,
		"800MiB":     800 << 20,
		"800mb":      800 << 20,
		"1.5G":       3 << 29,
		"2GiB":       2 << 30,
		"64k":        64 << 10,
		"1T":         1 << 40,
		" 512 MB ":   512 << 20,
	} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1G", "NaN", "Inf", "3X", "1P", "M", "1GG", "1e30G"} {
		if got, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) = %d, want an error", in, got)
		}
	}
}

// TestApplyMemLimit: --mem sets the runtime's soft limit; without it and
// without GOMEMLIMIT or an address-space limit, there is none.
func TestApplyMemLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOMEMLIMIT", "")
	if err := applyMemLimit("300M"); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("limit %d after --mem 300M", got)
	}
	if addressSpaceLimit() == 0 {
		if err := applyMemLimit(""); err != nil {
			t.Fatal(err)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("limit %d without --mem, GOMEMLIMIT or ulimit -v", got)
		}
	}
	if err := applyMemLimit("lots"); err == nil {
		t.Error("--mem lots accepted")
	}
}

// TestRelaxGC: the read's collector target applies until restored, and a
// GOGC the user set stands.
func TestRelaxGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	restore := relaxGC()
	if got := debug.SetGCPercent(readGCPercent); got != readGCPercent {
		t.Errorf("GC percent %d while reading, want %d", got, readGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d once restored, want 100", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	relaxGC()()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GC percent %d with GOGC=50, want 50", got)
	}
}
