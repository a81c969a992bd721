//go:build linux || darwin

package membudget

import "syscall"

// addressSpaceLimit returns the soft RLIMIT_AS of the process in bytes, or
// 0 when there is none.
func addressSpaceLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) {
		return 0
	}
	return r.Cur
}
