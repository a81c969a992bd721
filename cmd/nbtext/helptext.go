package main

import (
	"embed"
	"strings"
)

// helpFiles hold each command's long help, and its examples after a line
// "--- examples ---": help/<command>.txt, prose kept apart from the code.
//
//go:embed help/*.txt help/usage.tmpl
var helpFiles embed.FS

// helpParts returns the long help and the examples of command.
func helpParts(command string) (long, examples string) {
	b, err := helpFiles.ReadFile("help/" + command + ".txt")
	if err != nil {
		panic("no help text for " + command) // a build without its help file
	}
	text := strings.TrimSuffix(string(b), "\n")
	long, examples, _ = strings.Cut(text, "\n--- examples ---\n")
	return long, examples
}

func helpText(command string) string    { l, _ := helpParts(command); return l }
func exampleText(command string) string { _, e := helpParts(command); return e }
