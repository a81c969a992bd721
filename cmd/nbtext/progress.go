package main

import (
	"io"

	bars "github.com/nbtext/nbtext/internal/progress"
)

// progress returns the bar of a phase on stderr (package progress), or
// nil when stderr is not a terminal or --quiet is set.
func progress(errw io.Writer, quiet bool, phase string) func(done, total int) {
	return bars.Phase(errw, quiet, phase)
}

// progressIn is progress in a unit the caller names.
func progressIn(errw io.Writer, quiet bool, phase, unit string) func(done, total int) {
	return bars.In(errw, quiet, phase, unit)
}

// readingProgress is the bar of reading the corpus at path: MB of a
// file, an archive or stdin, documents of a folder.
func readingProgress(errw io.Writer, quiet bool, path string) func(done, total int) {
	return bars.Reading(errw, quiet, path)
}
