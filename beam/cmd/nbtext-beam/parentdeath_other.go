//go:build !linux

package main

// dieWithParent does nothing off Linux (see parentdeath_linux.go).
func dieWithParent() {}
