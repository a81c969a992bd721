package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Scratch is a temporary file for the process's own use (a spool, a row
// cache), read back through the open file. It is unlinked as soon as it
// is created where the system allows it, so that nothing is left behind
// however the process ends; elsewhere Close removes it.
type Scratch struct {
	*os.File
	name string // to remove on Close; "" once unlinked
}

// NewScratch creates a scratch file in dir ("": os.TempDir) with a name
// made from pattern as os.CreateTemp makes it.
func NewScratch(dir, pattern string) (*Scratch, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	s := &Scratch{File: f, name: f.Name()}
	if os.Remove(f.Name()) == nil {
		s.name = ""
	}
	return s, nil
}

// Close closes the file and removes it if it still has a name.
func (s *Scratch) Close() error {
	err := s.File.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
		s.name = ""
	}
	return err
}

// CreateTemp creates a new file in dir ("": os.TempDir) named from pattern
// as os.CreateTemp names it, for a process that must reopen it by name (a
// spilled run). The name is registered before the file exists, so that a
// signal CleanupOnSignal catches removes it; RemoveTemp removes it and
// forgets it. (A kill -9 cannot be caught: use NewScratch where the file
// need not be reopened.)
func CreateTemp(dir, pattern string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	prefix, suffix, _ := strings.Cut(pattern, "*")
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		if err := register(name); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, nil
		}
		unregister(name)
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	return nil, errors.New("no free temporary file name")
}

// RemoveTemp removes a file of CreateTemp and forgets it.
func RemoveTemp(name string) error {
	err := os.Remove(name)
	unregister(name)
	return err
}

// OpenRegular opens path for reading if it is a regular file (or a symlink
// to one), and refuses a folder, device, named pipe or socket with an
// error naming what it is: opening a named pipe would wait for a writer
// forever, and a device may never end. The check is made before the open
// (which could block) and again on the open file.
func OpenRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, errNotRegularInput(fi.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s: %w", path, errNotRegularInput(fi.Mode()))
		}
		return nil, err
	}
	return f, nil
}

// notRegularInput is the error of OpenRegular.
type notRegularInput struct{ kind string }

func (e notRegularInput) Error() string { return "not a regular file (" + e.kind + ")" }
func (e notRegularInput) Is(target error) bool {
	return target == ErrNotRegular
}

func errNotRegularInput(m fs.FileMode) error { return notRegularInput{Kind(m)} }
