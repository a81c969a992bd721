package main

import (
	"fmt"
	"strings"
	"testing"
)

// docCommand is a command line of the documentation that
// TestREADMEOutputs runs: nbtext's arguments, its standard input, and what
// the documentation shows of the run.
type docCommand struct {
	args       []string
	stdin      string
	stderrOnly bool // "nbtext ARGS 2>&1 >/dev/null": the block shows stderr
	showExit   bool // "...; echo "exit $?"": the block ends with the exit code
}

// parseDocCommand reads a command line of the documentation:
//
//	[echo TEXT | printf FORMAT |] nbtext ARGS [2>&1 >/dev/null] [; echo "exit $?"]
//
// with the shell's single and double quotes, and printf's \t, \n and \\.
// Anything else (another program, a pipe out of nbtext) is refused, so
// that a block is only ever checked against what its command prints.
func parseDocCommand(line string) (docCommand, error) {
	var c docCommand
	line = strings.TrimSpace(line)
	if rest, ok := strings.CutSuffix(line, `; echo "exit $?"`); ok {
		line, c.showExit = strings.TrimSpace(rest), true
	}
	if rest, ok := strings.CutSuffix(line, "2>&1 >/dev/null"); ok {
		line, c.stderrOnly = strings.TrimSpace(rest), true
	}
	if left, right, piped := strings.Cut(line, " | nbtext "); piped {
		words, err := shellWords(left)
		if err != nil {
			return c, err
		}
		switch {
		case len(words) == 2 && words[0] == "echo":
			c.stdin = words[1] + "\n"
		case len(words) == 2 && words[0] == "printf":
			c.stdin = strings.NewReplacer(`\t`, "\t", `\n`, "\n", `\\`, `\`).Replace(words[1])
		default:
			return c, fmt.Errorf("%q: only echo TEXT or printf FORMAT may feed nbtext", left)
		}
		line = "nbtext " + right
	}
	words, err := shellWords(line)
	if err != nil {
		return c, err
	}
	if len(words) == 0 || words[0] != "nbtext" {
		return c, fmt.Errorf("%q: not an nbtext command", line)
	}
	for _, w := range words[1:] {
		if w == "|" || w == ">" || w == "<" || w == ";" || w == "&&" {
			return c, fmt.Errorf("%q: a shell operator the check cannot run", line)
		}
	}
	c.args = words[1:]
	return c, nil
}

// shellWords splits s into words as the shell does for plain words and
// single- and double-quoted strings (no expansions).
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case ' ', '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], ch)
			if j < 0 {
				return nil, fmt.Errorf("%q: unmatched %c", s, ch)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			w.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// consoleSegment is one command of a checked console block and the
// output shown below it.
type consoleSegment struct {
	cmd    string // the command line, continuation lines joined
	text   string // the lines of the command as written ("$ ..." and continuations)
	output string // what follows, up to the next "$ " line
}

// parseConsole splits a console block into its commands ("$ " lines,
// continued by a trailing backslash) and their outputs.
func parseConsole(block string) ([]consoleSegment, error) {
	lines := strings.SplitAfter(block, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var segs []consoleSegment
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(lines[i], "$ ") {
			if len(segs) == 0 {
				return nil, fmt.Errorf("a checked block starts with a \"$ \" line, not %q", lines[i])
			}
			segs[len(segs)-1].output += lines[i]
			i++
			continue
		}
		var cmd, text strings.Builder
		for ; i < len(lines); i++ {
			text.WriteString(lines[i])
			l := strings.TrimSuffix(lines[i], "\n")
			if cmd.Len() == 0 {
				l = strings.TrimPrefix(l, "$ ")
			}
			if rest, cont := strings.CutSuffix(l, `\`); cont {
				cmd.WriteString(strings.TrimSpace(rest) + " ")
				continue
			}
			cmd.WriteString(strings.TrimSpace(l))
			i++
			break
		}
		segs = append(segs, consoleSegment{cmd: cmd.String(), text: text.String()})
	}
	return segs, nil
}

// TestParseDocCommand checks the command lines the documentation's checked
// blocks may hold, and that others are refused.
func TestParseDocCommand(t *testing.T) {
	for _, c := range []struct {
		line  string
		args  string // joined by |
		stdin string
		errOn bool
		exit  bool
	}{
		{line: "nbtext train 20news -o m.nbm", args: "train|20news|-o|m.nbm"},
		{line: `echo "the gpu renders" | nbtext predict -m m.nbm`, args: "predict|-m|m.nbm", stdin: "the gpu renders\n"},
		{line: `printf 'x\tC++ and\n' | nbtext vocab - --token-pattern '[#\pL][\pL]*'`, args: `vocab|-|--token-pattern|[#\pL][\pL]*`, stdin: "x\tC++ and\n"},
		{line: `nbtext eval -m m.nbm t.tsv --min-accuracy 0.9 2>&1 >/dev/null; echo "exit $?"`, args: "eval|-m|m.nbm|t.tsv|--min-accuracy|0.9", errOn: true, exit: true},
		{line: "nbtext eval -m m.nbm t.tsv | tail -3"},
		{line: "cat x | nbtext predict -m m.nbm"},
		{line: "rm -rf x"},
	} {
		got, err := parseDocCommand(c.line)
		if c.args == "" {
			if err == nil {
				t.Errorf("%q: accepted", c.line)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if a := strings.Join(got.args, "|"); a != c.args || got.stdin != c.stdin || got.stderrOnly != c.errOn || got.showExit != c.exit {
			t.Errorf("%q: %+v", c.line, got)
		}
	}
	segs, err := parseConsole("$ nbtext a \\\n    --b c\nout 1\nout 2\n\n$ nbtext d\nout 3\n")
	if err != nil || len(segs) != 2 || segs[0].cmd != "nbtext a --b c" || segs[0].output != "out 1\nout 2\n\n" || segs[1].cmd != "nbtext d" || segs[1].output != "out 3\n" {
		t.Errorf("parseConsole: %+v, %v", segs, err)
	}
	if _, err := parseConsole("out\n$ nbtext a\n"); err == nil {
		t.Error("a block that does not start with a command: accepted")
	}
}
