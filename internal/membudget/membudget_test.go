package membudget

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestParse(t *testing.T) {
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
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1G", "NaN", "Inf", "3X", "1P", "M", "1GG", "1e30G"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %d, want an error", in, got)
		}
	}
}

func TestParseGoMemLimit(t *testing.T) {
	for in, want := range map[string]int64{"1000": 1000, "2GiB": 2 << 30, "512MiB": 512 << 20, "7B": 7, "3KiB": 3 << 10} {
		if got, err := parseGoMemLimit(in); err != nil || got != want {
			t.Errorf("parseGoMemLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"2G", "x", "-1", "1.5GiB"} {
		if _, err := parseGoMemLimit(in); err == nil {
			t.Errorf("parseGoMemLimit(%q): no error", in)
		}
	}
}

// fakeSystem makes Resolve and SoftLimit read the given limits until the
// test ends.
func fakeSystem(t *testing.T, env map[string]string, cgroup int64, physical int64, as uint64) {
	old := system
	t.Cleanup(func() { system = old })
	system.getenv = func(k string) string { return env[k] }
	system.cgroup = func() (int64, string) {
		if cgroup > 0 {
			return cgroup, "cgroup memory.max"
		}
		return 0, ""
	}
	system.physical = func() int64 { return physical }
	system.addressSpan = func() uint64 { return as }
}

// TestResolve: --mem, then GOMEMLIMIT, then the cgroup, then the smaller
// of physical memory and ulimit -v.
func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		name     string
		mem      string
		env      map[string]string
		cgroup   int64
		physical int64
		as       uint64
		want     Budget
	}{
		{"mem", "300M", map[string]string{"GOMEMLIMIT": "1GiB"}, 2 << 30, 8 << 30, 0, Budget{300 << 20, "--mem"}},
		{"gomemlimit", "", map[string]string{"GOMEMLIMIT": "1GiB"}, 2 << 30, 8 << 30, 0, Budget{1 << 30, "GOMEMLIMIT"}},
		{"gomemlimit off", "", map[string]string{"GOMEMLIMIT": "off"}, 2 << 30, 8 << 30, 0, Budget{2 << 30, "cgroup memory.max"}},
		{"cgroup", "", nil, 2 << 30, 8 << 30, 1 << 30, Budget{2 << 30, "cgroup memory.max"}},
		{"physical", "", nil, 0, 8 << 30, 0, Budget{8 << 30, "physical memory"}},
		{"ulimit", "", nil, 0, 8 << 30, 1 << 30, Budget{1 << 30, "ulimit -v"}},
		{"nothing", "", nil, 0, 0, 0, Budget{math.MaxInt64, "none"}},
	} {
		fakeSystem(t, tt.env, tt.cgroup, tt.physical, tt.as)
		got, err := Resolve(tt.mem)
		if err != nil || got != tt.want {
			t.Errorf("%s: Resolve = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	fakeSystem(t, map[string]string{"GOMEMLIMIT": "lots"}, 0, 0, 0)
	if _, err := Resolve(""); err == nil {
		t.Error("GOMEMLIMIT=lots accepted")
	}
	if _, err := Resolve("lots"); err == nil {
		t.Error("--mem lots accepted")
	}
}

func TestSoftLimit(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mem    string
		env    map[string]string
		cgroup int64
		as     uint64
		want   int64
		ok     bool
	}{
		{"mem", "300M", nil, 0, 0, 300 << 20, true},
		{"gomemlimit", "", map[string]string{"GOMEMLIMIT": "1GiB"}, 0, 0, 0, false},
		{"cgroup", "", nil, 1000 << 20, 0, 900 << 20, true},
		{"ulimit", "", nil, 0, 4 << 30, 4<<30 - runtimeReserve, true},
		{"small ulimit", "", nil, 0, 800 << 20, 200 << 20, true},
		{"none", "", nil, 0, 0, math.MaxInt64, true},
	} {
		fakeSystem(t, tt.env, tt.cgroup, 8<<30, tt.as)
		got, ok, err := SoftLimit(tt.mem)
		if err != nil || got != tt.want || ok != tt.ok {
			t.Errorf("%s: SoftLimit = %d, %v, %v; want %d, %v", tt.name, got, ok, err, tt.want, tt.ok)
		}
	}
}

// TestApply: --mem sets the runtime's soft limit.
func TestApply(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	fakeSystem(t, nil, 0, 8<<30, 0)
	if err := Apply("300M"); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("limit %d after --mem 300M", got)
	}
	if got := CountTables(); got != 75<<20 {
		t.Errorf("CountTables() = %d under a 300 MiB limit, want 75 MiB", got)
	}
	if err := Apply(""); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d without --mem, GOMEMLIMIT, cgroup or ulimit -v", got)
	}
	if got := CountTables(); got != 512<<20 {
		t.Errorf("CountTables() = %d without a limit, want 512 MiB", got)
	}
	if err := Apply("lots"); err == nil {
		t.Error("--mem lots accepted")
	}
}

// TestCgroupFiles reads v2 and v1 limits from a stand-in cgroup tree.
func TestCgroupFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("self", "12:cpu,cpuacct:/x\n11:memory:/job\n0::/user.slice/a.scope\n")
	v2, v1 := cgroupPaths(filepath.Join(dir, "self"))
	if v2 != "/user.slice/a.scope" || v1 != "/job" {
		t.Errorf("cgroupPaths = %q, %q", v2, v1)
	}
	write("max", "max\n")
	write("n", "1073741824\n")
	write("v1unbounded", "9223372036854771712\n")
	for name, want := range map[string]int64{"max": 0, "n": 1 << 30, "v1unbounded": 0, "missing": 0} {
		if got := readLimit(filepath.Join(dir, name)); got != want {
			t.Errorf("readLimit(%s) = %d, want %d", name, got, want)
		}
	}
	old := cgroupRoot
	defer func() { cgroupRoot = old }()
	cgroupRoot = dir
	write("memory/memory.limit_in_bytes", "536870912\n")
	if n, src := cgroupLimit(); n != 512<<20 || src != "cgroup memory.limit_in_bytes" {
		t.Errorf("v1: cgroupLimit = %d, %q", n, src)
	}
	write("memory.max", "268435456\n")
	if n, src := cgroupLimit(); n != 256<<20 || src != "cgroup memory.max" {
		t.Errorf("v2: cgroupLimit = %d, %q", n, src)
	}
}

// TestRelaxGC: the read's collector target applies until restored, and a
// GOGC the user set stands.
func TestRelaxGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	restore := RelaxGC()
	if got := debug.SetGCPercent(ReadGCPercent); got != ReadGCPercent {
		t.Errorf("GC percent %d while reading, want %d", got, ReadGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d once restored, want 100", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	RelaxGC()()
	if got := debug.SetGCPercent(50); got != 50 {
		t.Errorf("GC percent %d with GOGC=50, want 50", got)
	}
}

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 1536: "1.5 KiB", 1 << 30: "1.0 GiB", 3 << 29: "1.5 GiB"} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q, want %q", n, got, want)
		}
	}
}
