package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (false for buffers and pipes).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress returns a callback that drives a progress bar on stderr, or nil
// when stderr is not a terminal or --quiet is set. The core packages call it
// with (done, total); the bar is throttled to ~10 redraws a second and
// cleared when done.
func progress(errw io.Writer, quiet bool, label string) func(done, total int) {
	if quiet || !isTerminal(errw) {
		return nil
	}
	var (
		mu  sync.Mutex
		bar *progressbar.ProgressBar
	)
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if bar == nil {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(errw),
				progressbar.OptionSetDescription(label),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(),
				progressbar.OptionSetWidth(30),
			)
		}
		bar.ChangeMax(total)
		bar.Set(done)
		if done >= total {
			bar.Finish()
			bar = nil
		}
	}
}
