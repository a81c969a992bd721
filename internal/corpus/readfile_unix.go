//go:build unix

package corpus

import (
	"syscall"
)

// readInto appends the content of the file at p to buf, failing once it
// passes max bytes (ErrTooLarge), or before reading when the file's size
// passes it. On Unix it uses
// the system calls directly: an *os.File would add a netpoller
// registration and a finalizer per file, a third of the cost of reading the
// 20 Newsgroups train folder.
func readInto(buf []byte, p string, max int) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return buf, pathError(p, err)
	}
	defer syscall.Close(fd)
	// A regular file whose size already passes max is refused unread (a
	// file that grows while read is still caught below).
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		if st.Size > int64(max) {
			return buf, ErrTooLarge
		}
		buf = growFor(buf, st.Size)
	}
	start := len(buf)
	for {
		if len(buf)-start > max {
			return buf, ErrTooLarge
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, pathError(p, err)
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
