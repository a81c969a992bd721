package counts

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/membudget"
)

// TableFullError is the error of a count whose tables passed its ceiling
// (Options.Ceiling): the terms and the memory they took when it stopped,
// after Documents documents of Classes classes.
type TableFullError struct {
	Bytes, Ceiling int64 // the tables and model estimate; the ceiling
	Terms          int   // the terms the largest worker's table held
	Documents      int64
	Classes        int
}

func (e *TableFullError) Error() string {
	return fmt.Sprintf("the count table passed its bound %s (%d terms, about %s with the model they make) after %d documents",
		membudget.Format(e.Ceiling), e.Terms, membudget.Format(e.Bytes), e.Documents)
}

// fullError returns a *TableFullError when the workers' tables, and
// Options.ModelCell bytes per term and class, pass Options.Ceiling. The
// terms are those of the largest table: the workers share most of them,
// and the model holds each once.
func (c *Counter) fullError() error {
	var mem int64
	terms := 0
	for _, w := range c.workers {
		mem += w.mem.Load()
		terms = max(terms, int(w.terms.Load()))
	}
	mem += int64(terms) * int64(max(len(c.names), 1)) * c.opt.ModelCell
	if mem <= c.opt.Ceiling {
		return nil
	}
	var docs int64
	for _, d := range c.total {
		docs += d
	}
	return &TableFullError{Bytes: mem, Ceiling: c.opt.Ceiling, Terms: terms, Documents: docs, Classes: len(c.names)}
}
