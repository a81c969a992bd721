package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagGroupOrder and flagGroups are the help sections, in order, and
// the flags of each, read from help/sections.txt: one table for all
// commands, so that a flag means the same section wherever it appears
// ("command/flag" for the exceptions).
var flagGroupOrder, flagGroups = readSections()

// readSections parses help/sections.txt: "Section: flag flag ..." lines,
// continued on indented lines; '#' lines are comments.
func readSections() (order []string, groups map[string][]string) {
	b, err := helpFiles.ReadFile("help/sections.txt")
	if err != nil {
		panic(err) // a build without its help files
	}
	groups = map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line[0] == ' ':
			g := order[len(order)-1]
			groups[g] = append(groups[g], strings.Fields(line)...)
		default:
			g, names, _ := strings.Cut(line, ": ")
			order = append(order, g)
			groups[g] = strings.Fields(names)
		}
	}
	return order, groups
}

// flagGroupOf maps "name" and "command/name" to a section, built from
// flagGroups.
var flagGroupOf = func() map[string]string {
	m := map[string]string{}
	for g, names := range flagGroups {
		for _, n := range names {
			if prev, ok := m[n]; ok {
				panic("flag " + n + " is in two help sections: " + prev + ", " + g)
			}
			m[n] = g
		}
	}
	return m
}()

// groupOf returns the help section of flag f of command c ("" for none).
func groupOf(c *cobra.Command, f *pflag.Flag) string {
	if g, ok := flagGroupOf[c.Name()+"/"+f.Name]; ok {
		return g
	}
	return flagGroupOf[f.Name]
}

// groupHelp makes the usage of c and of the commands below it print the
// flags by section (flagSections, which looks each section up when help
// is printed: building the command tree, which every run does, does not
// visit its flags).
func groupHelp(c *cobra.Command) {
	if !c.HasParent() {
		c.InitDefaultVersionFlag()
		c.InitDefaultHelpCmd()
	}
	c.InitDefaultHelpFlag()
	for _, sub := range c.Commands() {
		groupHelp(sub)
	}
	if !c.HasParent() {
		c.SetUsageTemplate(groupedUsageTemplate)
	}
}

// cobra's template functions are one global map: registered once, before
// any command is built, so that building commands concurrently never
// writes it.
func init() { cobra.AddTemplateFunc("flagSections", flagSections) }

// flagSections returns c's flags (its own and those it inherits) as the
// text of the help's sections, in flagGroupOrder; a flag with no section
// (TestEveryFlagHasAGroup prevents it) is listed under "Other flags".
func flagSections(c *cobra.Command) string {
	sets := map[string]*pflag.FlagSet{}
	add := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := groupOf(c, f)
		if g == "" {
			g = "Other"
		}
		if sets[g] == nil {
			sets[g] = pflag.NewFlagSet(g, pflag.ContinueOnError)
			sets[g].SortFlags = true
		}
		sets[g].AddFlag(f)
	}
	c.LocalFlags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	var b strings.Builder
	for _, g := range append(flagGroupOrder, "Other") {
		fs := sets[g]
		if fs == nil {
			continue
		}
		title := g + " flags:"
		if g == "Other" {
			title = "Other flags:"
		}
		b.WriteString("\n\n" + title + "\n")
		b.WriteString(strings.TrimRight(fs.FlagUsages(), " \n"))
	}
	return b.String()
}

// groupedUsageTemplate is cobra's default usage template with the flags
// printed by section (flagSections) instead of in two blocks.
var groupedUsageTemplate = func() string {
	b, err := helpFiles.ReadFile("help/usage.tmpl")
	if err != nil {
		panic(err)
	}
	return string(b)
}()
