package model

import (
	"fmt"
	"strings"
)

// Step is one change of the documents a model was fitted on, as 'nbtext
// update' and 'nbtext forget' record it (Meta.History): Op is "train",
// "update" or "forget", Docs the documents that step added (train,
// update) or removed (forget), Total the documents of the model after it,
// Date when it ran (RFC 3339, UTC; empty when not recorded: train writes
// no history, so that the same data give the same bytes, and the first
// update records the train step it starts from without a date), and
// Source the corpus it read, as given (empty for the train step).
type Step struct {
	Op     string `json:"op"`
	Docs   int64  `json:"docs"`
	Total  int64  `json:"total"`
	Date   string `json:"date,omitempty"`
	Source string `json:"source,omitempty"`
	// Classes lists the classes the step added (update) or dropped
	// (forget, when none of a class's documents are left).
	Classes []string `json:"classes,omitempty"`
}

// String writes the step on one line, as 'nbtext info' shows it.
func (s Step) String() string {
	var b strings.Builder
	date := s.Date
	if date == "" {
		date = "date not recorded"
	}
	sign := "+"
	if s.Op == "forget" {
		sign = "-"
	}
	if s.Op == "train" {
		sign = ""
	}
	fmt.Fprintf(&b, "%-7s %s%d documents, %d in all (%s)", s.Op, sign, s.Docs, s.Total, date)
	if s.Source != "" {
		fmt.Fprintf(&b, " from %s", s.Source)
	}
	if len(s.Classes) > 0 {
		verb := "new classes"
		if s.Op == "forget" {
			verb = "classes dropped"
		}
		fmt.Fprintf(&b, "; %s: %s", verb, strings.Join(s.Classes, ", "))
	}
	return b.String()
}

// checkHistory checks the steps a file records: known operations and
// document counts that are not negative.
func checkHistory(steps []Step) error {
	for i, s := range steps {
		switch s.Op {
		case "train", "update", "forget":
		default:
			return fmt.Errorf("history step %d: unknown op %q", i+1, s.Op)
		}
		if s.Docs < 0 || s.Total < 0 {
			return fmt.Errorf("history step %d: negative document count", i+1)
		}
	}
	return nil
}
