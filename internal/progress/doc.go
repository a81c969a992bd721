// Package progress owns the progress bars nbtext draws on a terminal:
// one bar per phase, named after it ("reading", "fitting", ...), in the
// unit the phase counts (bytes shown as kB, MB, GB with a rate; passes,
// fits, labels, documents), a spinner while the total is unknown, and
// nothing at all when the writer is not a terminal or the user asked for
// quiet. The packages that do the work report (done, total) through plain
// callbacks, func(done, total int), and never import this one.
package progress
