package membudget

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cgroupRoot is where the cgroup file systems are mounted.
var cgroupRoot = "/sys/fs/cgroup"

// cgroupLimit returns the memory limit of the process's cgroup and the
// file it came from ("cgroup memory.max" for v2, "cgroup
// memory.limit_in_bytes" for v1), or 0 when there is none (or it is
// "max", or v1's "unlimited" of nearly 2^63).
func cgroupLimit() (int64, string) {
	v2, v1 := cgroupPaths("/proc/self/cgroup")
	if v2 != "" {
		if n := readLimit(filepath.Join(cgroupRoot, v2, "memory.max")); n > 0 {
			return n, "cgroup memory.max"
		}
	}
	if n := readLimit(filepath.Join(cgroupRoot, "memory.max")); n > 0 {
		return n, "cgroup memory.max"
	}
	for _, dir := range []string{filepath.Join(cgroupRoot, "memory", v1), filepath.Join(cgroupRoot, "memory")} {
		if n := readLimit(filepath.Join(dir, "memory.limit_in_bytes")); n > 0 {
			return n, "cgroup memory.limit_in_bytes"
		}
	}
	return 0, ""
}

// cgroupPaths reads /proc/self/cgroup for the process's v2 cgroup path
// (the line "0::/path") and its v1 memory cgroup path
// ("N:memory:/path").
func cgroupPaths(file string) (v2, v1 string) {
	f, err := os.Open(file)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case strings.Contains(","+parts[1]+",", ",memory,"):
			v1 = parts[2]
		}
	}
	return v2, v1
}

// readLimit reads a cgroup limit file: a number of bytes, or "max". It
// returns 0 for none: a missing file, "max", or a value past 2^60 (v1
// writes an unbounded limit as about 2^63 rounded to the page size).
func readLimit(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n > 1<<60 {
		return 0
	}
	return n
}

// physicalMemory returns MemTotal of /proc/meminfo in bytes, or 0 where
// there is no such file.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			fs := strings.Fields(rest)
			if len(fs) == 0 {
				return 0
			}
			kb, err := strconv.ParseInt(fs[0], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
