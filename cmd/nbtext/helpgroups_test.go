package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestEveryFlagHasAGroup walks every command and fails for a flag that
// flagGroups puts in no help section, so that a new flag cannot be
// forgotten in the grouped help.
func TestEveryFlagHasAGroup(t *testing.T) {
	root := newRootCmd(streams{In: strings.NewReader(""), Out: &strings.Builder{}, Err: &strings.Builder{}})
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(f *pflag.Flag) {
			n++
			if groupOf(c, f) == "" {
				t.Errorf("%s --%s is in no help section: add it to flagGroups in helpgroups.go", c.CommandPath(), f.Name)
			}
		}
		c.LocalFlags().VisitAll(check)
		c.InheritedFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if n < 300 {
		t.Errorf("only %d flags seen: the walk missed commands", n)
	}
	for g := range flagGroups {
		found := false
		for _, o := range flagGroupOrder {
			found = found || o == g
		}
		if !found {
			t.Errorf("help section %q is not in flagGroupOrder", g)
		}
	}
}

// TestHelpGrouped checks that train --help prints its flags by section,
// each flag once.
func TestHelpGrouped(t *testing.T) {
	isolate(t)
	r := nbtext(t, "", "train", "--help")
	check(t, r, 0)
	last := -1
	for _, title := range []string{"Input flags:", "Vectorizer flags:", "Model flags:", "Records flags:", "Multi-label flags:", "Search (--auto) flags:", "Semi-supervised flags:", "Scale and memory flags:", "Output flags:", "Global flags:"} {
		i := strings.Index(r.out, "\n"+title+"\n")
		if i < 0 {
			t.Errorf("train --help has no section %q:\n%s", title, r.out)
			continue
		}
		if i < last {
			t.Errorf("section %q is out of order", title)
		}
		last = i
	}
	if strings.Contains(r.out, "Other flags:") {
		t.Errorf("train --help has flags in no section:\n%s", r.out)
	}
	for _, f := range []string{"--alpha", "--input-format", "--output", "--quiet", "--help"} {
		c := 0
		for _, l := range strings.Split(r.out, "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, f+" ") || strings.Contains(l, ", "+f+" ") && strings.HasPrefix(l, "-") {
				c++
			}
		}
		if c != 1 {
			t.Errorf("train --help lists %s %d times", f, c)
		}
	}
}
