//go:build !linux && !darwin

package membudget

// addressSpaceLimit returns 0: no address-space limit is read here.
func addressSpaceLimit() uint64 { return 0 }
