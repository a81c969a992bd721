package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Unit is what a budget counts.
type Unit int

// The units of a budget.
const (
	// WallTime counts seconds of wall-clock time: what the user waits,
	// which a slowed or shared machine makes do less work.
	WallTime Unit = iota
	// CPUTime counts seconds of the process's CPU time (user and system,
	// all threads): the same work on a loaded machine as on a quiet one,
	// give or take the cache, but not across machines of other speeds.
	CPUTime
	// Evaluations counts candidate evaluations: one evaluation is one
	// candidate's fits on every split of the cross-validation (k fits; a
	// candidate scored on some of the splits counts its share), Naive
	// Bayes candidates that differ only in α sharing one fit per split.
	// What it admits depends on nothing but the data, the space and the
	// seed: the same model on every machine.
	Evaluations
)

// Budget bounds a search and the fit of its choice.
type Budget struct {
	Unit Unit
	// Amount is seconds (WallTime, CPUTime) or evaluations; 0 is no bound.
	Amount float64
}

// ParseBudget reads a budget as the --budget flag takes it: a duration
// ("60s", "2m": wall time), "wall:DURATION", "cpu:DURATION" or
// "evals:N".
func ParseBudget(s string) (Budget, error) {
	unit, val := "wall", s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		unit, val = s[:i], s[i+1:]
	}
	switch unit {
	case "wall", "cpu":
		d, err := time.ParseDuration(val)
		if err != nil || d <= 0 {
			return Budget{}, fmt.Errorf("budget %q: want a duration > 0 such as 60s, cpu:60s or evals:40", s)
		}
		b := Budget{Unit: WallTime, Amount: d.Seconds()}
		if unit == "cpu" {
			if _, err := cpuSeconds(); err != nil {
				return Budget{}, fmt.Errorf("budget %q: %w", s, err)
			}
			b.Unit = CPUTime
		}
		return b, nil
	case "evals":
		n, err := strconv.ParseFloat(val, 64)
		if err != nil || !(n > 0) || math.IsInf(n, 0) {
			return Budget{}, fmt.Errorf("budget %q: want a number of evaluations > 0 such as evals:40", s)
		}
		return Budget{Unit: Evaluations, Amount: n}, nil
	}
	return Budget{}, fmt.Errorf("budget %q: unknown unit %q (want a duration, cpu:DURATION or evals:N)", s, unit)
}

// String returns b as ParseBudget reads it.
func (b Budget) String() string {
	switch b.Unit {
	case CPUTime:
		return "cpu:" + fmtSeconds(b.Amount)
	case Evaluations:
		return "evals:" + strconv.FormatFloat(b.Amount, 'g', -1, 64)
	}
	return fmtSeconds(b.Amount)
}

// UnitName names what b counts, for people: "s", "CPU s" or "evaluations".
func (b Budget) UnitName() string {
	switch b.Unit {
	case CPUTime:
		return "CPU s"
	case Evaluations:
		return "evaluations"
	}
	return "s"
}

func fmtSeconds(s float64) string { return time.Duration(s * float64(time.Second)).String() }

// Spent returns what b's unit has spent since start (a command's start):
// the wall seconds since then, or the CPU seconds of the process so far
// (the process is taken to have started with the command); 0 for
// Evaluations, which only a search spends. A search is given it as
// Options.Spent, so that the budget covers the reading of the corpus too.
func (b Budget) Spent(start time.Time) float64 {
	switch b.Unit {
	case WallTime:
		return time.Since(start).Seconds()
	case CPUTime:
		s, _ := cpuSeconds()
		return s
	}
	return 0
}

// meter reads what a search has spent of its budget, in the budget's unit,
// since the search started. Durations (of jobs, tokenizations, fits) are
// measured by clock, in seconds of the budget's time (wall or CPU; wall for
// an Evaluations budget, where they are only shown).
type meter interface {
	now() float64   // spent, in the budget's unit
	clock() float64 // seconds, to measure durations
}

// wallMeter counts wall seconds since start.
type wallMeter struct{ start time.Time }

func (m wallMeter) now() float64   { return time.Since(m.start).Seconds() }
func (m wallMeter) clock() float64 { return m.now() }

// cpuMeter counts the process's CPU seconds since start.
type cpuMeter struct{ start float64 }

func (m cpuMeter) now() float64 {
	s, _ := cpuSeconds()
	return s - m.start
}
func (m cpuMeter) clock() float64 { return m.now() }

// evalMeter counts evaluations claimed by the jobs started: fits over the
// number of splits. The claim is made when a job starts, in the jobs'
// fixed order, so what a budget admits depends on no clock.
type evalMeter struct {
	mu     sync.Mutex
	fits   int
	splits int
	start  time.Time
}

func (m *evalMeter) now() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return float64(m.fits) / float64(m.splits)
}
func (m *evalMeter) clock() float64 { return time.Since(m.start).Seconds() }

func (m *evalMeter) claim(fits int) {
	m.mu.Lock()
	m.fits += fits
	m.mu.Unlock()
}
