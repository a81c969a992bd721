// Package buildinfo owns the version string that nbtext's commands record
// in the files they write (model.Meta.Version): the one given at link time
// with -ldflags -X, else the module version that 'go install
// MODULE@VERSION' embeds, else "dev". Both nbtext and nbtext-beam use it, so
// a model says which build wrote it the same way whichever command did.
package buildinfo
