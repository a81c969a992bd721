package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
)

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

// Text is what 'nbtext --version' prints: the version, then the
// module, its VCS revision and the Go toolchain, all from the build info
// that 'go build' and 'go install' embed (a plain 'go build' in a git
// checkout records vcs.revision, vcs.time and vcs.modified; 'go install
// MODULE@VERSION' records the module version instead).
func Text(ldVersion string, bi *debug.BuildInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "nbtext %s\n", Version(ldVersion, bi))
	if bi == nil {
		b.WriteString("no build information (built without module support)\n")
		return b.String()
	}
	mod := bi.Main.Path
	if mod == "" {
		mod = bi.Path
	}
	modVersion := bi.Main.Version
	if modVersion == "" {
		modVersion = "(devel)"
	}
	fmt.Fprintf(&b, "module    %s %s\n", mod, modVersion)
	set := map[string]string{}
	for _, s := range bi.Settings {
		set[s.Key] = s.Value
	}
	if rev := set["vcs.revision"]; rev != "" {
		line := rev
		if t := set["vcs.time"]; t != "" {
			line += " (" + t + ")"
		}
		if set["vcs.modified"] == "true" {
			line += ", with uncommitted changes"
		}
		fmt.Fprintf(&b, "revision  %s\n", line)
	} else {
		b.WriteString("revision  unknown (not built from a version-control checkout)\n")
	}
	fmt.Fprintf(&b, "go        %s\n", bi.GoVersion)
	return b.String()
}
