package fsutil

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// temps registers the temporary files of the writes in progress, so that a
// signal can remove them. Once closed (a signal's cleanup began) no new
// temporary file is created and nothing is renamed.
var temps struct {
	sync.Mutex
	names  map[string]bool
	dirs   map[string]bool // folders of TempDir, removed with what they hold
	closed bool
}

// tmpInfix separates a destination's name from the writer's process id in
// its temporary files: ".NAME.tmp-PID-RANDOM".
const tmpInfix = ".tmp-"

// legacyStaleAge is how long a temporary file named without a process id
// (".NAME.tmp-DIGITS", written by builds before this one) must have been
// left unmodified before a write of NAME removes it.
const legacyStaleAge = time.Minute

// createTemp creates, registered, a new temporary file beside dest with
// permission bits perm (less the umask).
func createTemp(dest string, perm fs.FileMode) (*os.File, string, error) {
	prefix := filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+tmpInfix+strconv.Itoa(os.Getpid())+"-")
	for range 100 {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		if err := register(name); err != nil {
			return nil, "", err
		}
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			return f, name, nil
		}
		unregister(name)
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", err
		}
	}
	return nil, "", errors.New("no free temporary file name")
}

func register(name string) error {
	temps.Lock()
	defer temps.Unlock()
	if temps.closed {
		return ErrInterrupted
	}
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[name] = true
	return nil
}

func unregister(name string) {
	temps.Lock()
	delete(temps.names, name)
	temps.Unlock()
}

func registered(name string) bool {
	temps.Lock()
	defer temps.Unlock()
	return temps.names[name]
}

// removeTemps removes every registered temporary file and stops further
// writes from creating or renaming any.
func removeTemps() {
	temps.Lock()
	defer temps.Unlock()
	temps.closed = true
	for name := range temps.names {
		os.Remove(name)
	}
	for dir := range temps.dirs {
		os.RemoveAll(dir)
	}
	temps.names, temps.dirs = nil, nil
}

// TempDir creates a folder "PREFIX-PID-RANDOM" in os.TempDir for the
// process's scratch files, and returns it with remove, which removes it
// and what it holds. Until remove, a signal that CleanupOnSignal catches
// removes it too, and so does the next TempDir of the same prefix once
// the process is gone (a kill -9): folders of the prefix whose process id
// no longer runs are removed first.
func TempDir(prefix string) (dir string, remove func(), err error) {
	base := os.TempDir()
	if entries, err := os.ReadDir(base); err == nil {
		for _, e := range entries {
			rest, ok := strings.CutPrefix(e.Name(), prefix+"-")
			if ok && e.IsDir() && strings.Contains(rest, "-") && stale(rest, e) {
				os.RemoveAll(filepath.Join(base, e.Name()))
			}
		}
	}
	temps.Lock()
	defer temps.Unlock()
	if temps.closed {
		return "", nil, ErrInterrupted
	}
	dir, err = os.MkdirTemp(base, prefix+"-"+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return "", nil, err
	}
	if temps.dirs == nil {
		temps.dirs = map[string]bool{}
	}
	temps.dirs[dir] = true
	return dir, func() {
		temps.Lock()
		delete(temps.dirs, dir)
		temps.Unlock()
		os.RemoveAll(dir)
	}, nil
}

// removeStale removes the temporary files of dest left by writers that
// died (a kill -9, an out-of-memory kill): those whose process id no longer
// runs, and those named without one that have not changed for
// legacyStaleAge. Errors are ignored: a stale file left is only untidy.
func removeStale(dest string) {
	dir, prefix := filepath.Dir(dest), "."+filepath.Base(dest)+tmpInfix
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		if registered(name) {
			continue
		}
		if stale(rest, e) {
			os.Remove(name)
		}
	}
}

// stale reports whether a temporary file whose name ends in rest ("PID-N",
// or "N" from older builds) was left by a writer that is gone.
func stale(rest string, e fs.DirEntry) bool {
	pid, _, ok := strings.Cut(rest, "-")
	if !ok {
		fi, err := e.Info()
		return err == nil && time.Since(fi.ModTime()) > legacyStaleAge
	}
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return n != os.Getpid() && !running(n)
}

// running reports whether a process with id pid exists (one of another
// user counts).
func running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return !errors.Is(err, os.ErrProcessDone) && !errors.Is(err, syscall.ESRCH)
}

// CleanupOnSignal makes SIGINT, SIGTERM and SIGHUP (those not ignored when
// the process started) remove the temporary files of the writes in
// progress and then kill the process with the same signal, as if it had
// not been caught (a shell sees 130 for Ctrl-C). stop undoes it. A kill -9
// cannot be caught: the next write of the same destination removes what it
// left (see removeStale).
func CleanupOnSignal() (stop func()) {
	var sigs []os.Signal
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case sig := <-ch:
			removeTemps()
			signal.Reset(sig)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(sig)
			}
			// Where a signal cannot be re-raised, exit as a shell would
			// report it.
			time.Sleep(time.Second)
			code := 1
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
