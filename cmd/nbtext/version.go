package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/nbtext/nbtext/internal/buildinfo"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// buildVersion returns the version recorded in models (model.Meta): the
// -ldflags version, else the module version of the build info, else "dev".
func buildVersion() string {
	return buildinfo.Version(version, buildinfo.Read())
}

// versionText is what 'nbtext --version' prints: the version, then the
// module, its VCS revision and the Go toolchain, all from the build info
// that 'go build' and 'go install' embed (a plain 'go build' in a git
// checkout records vcs.revision, vcs.time and vcs.modified; 'go install
// MODULE@VERSION' records the module version instead).
func versionText(ldVersion string, bi *debug.BuildInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "nbtext %s\n", buildinfo.Version(ldVersion, bi))
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
