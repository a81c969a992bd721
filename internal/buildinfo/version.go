package buildinfo

import "runtime/debug"

// Version returns ldVersion when it is set, else the main module's version
// in bi when it is a release ("(devel)" is not), else "dev". bi may be nil
// (a build without module support).
func Version(ldVersion string, bi *debug.BuildInfo) string {
	if ldVersion != "" {
		return ldVersion
	}
	if bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Read returns the running binary's build information, or nil when it has
// none.
func Read() *debug.BuildInfo {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi
	}
	return nil
}
