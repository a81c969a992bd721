package main

import "github.com/nbtext/nbtext/internal/buildinfo"

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// buildVersion returns the version recorded in models (model.Meta): the
// -ldflags version, else the module version of the build info, else "dev".
func buildVersion() string {
	return buildinfo.Version(version, buildinfo.Read())
}
