package main

import (
	"os"
	"syscall"
)

// dieWithParent makes the kernel kill this process when its parent dies.
// A worker started by Beam's Go boot in a PROCESS environment outlives a
// boot that the runner kills at the end of the job (Prism sends SIGKILL,
// which the boot cannot pass on): without this, each job would leave its
// workers running.
func dieWithParent() {
	const prSetPdeathsig = 1
	parent := os.Getppid()
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetPdeathsig, uintptr(syscall.SIGKILL), 0)
	if os.Getppid() != parent { // the parent died before the call
		os.Exit(1)
	}
}
