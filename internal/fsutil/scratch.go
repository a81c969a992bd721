package fsutil

import "os"

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
