package model

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// The model file format; the byte layout is documented in doc.go.
const (
	// FormatVersion is the newest format version this build writes: 4
	// for a model with feature hashing, 3 for one with record fields, 2
	// for any other (see doc.go), and 5 for an ensemble (ensembleVersion).
	FormatVersion = 5
	// MinFormatVersion is the oldest format version this build reads.
	MinFormatVersion = 1
	// MaxPayload bounds the payload length a reader accepts (1 GiB), so
	// that a damaged length field cannot make it allocate without limit.
	MaxPayload = 1 << 30

	headerSize  = 20 // magic, version, kind, reserved, payload length
	trailerSize = sha256.Size
	minFileSize = headerSize + trailerSize
)

// magic opens every model file. As in PNG, the first byte is not ASCII (it
// catches 7-bit transfers), "\r\n" catches CRLF conversion, 0x1a stops
// DOS type, and the final "\n" catches LF-to-CRLF conversion.
var magic = [8]byte{0x89, 'N', 'B', 'M', '\r', '\n', 0x1a, '\n'}

// Errors of Load and Decode. Every error they return is a *FileError that
// matches ErrModelFile and, for a bad file, exactly one of the other
// sentinels; an I/O error matches the underlying error instead (e.g.
// fs.ErrNotExist for a missing file).
var (
	// ErrModelFile matches every error of Load and Decode: the CLI maps it
	// to exit code 3.
	ErrModelFile = errors.New("bad model file")
	// ErrNotModel: the file does not start with the magic number (or is
	// empty).
	ErrNotModel = errors.New("not an nbtext model file")
	// ErrTruncated: the file is shorter than its header announces.
	ErrTruncated = errors.New("truncated")
	// ErrCorrupt: the checksum does not match, data follows the checksum,
	// or the payload does not decode to a valid model.
	ErrCorrupt = errors.New("corrupt")
	// ErrNewer: the format version, model kind or flags are newer than
	// this build.
	ErrNewer = errors.New("written by a newer nbtext")
	// ErrTooLarge: the announced payload exceeds MaxPayload.
	ErrTooLarge = errors.New("too large")
)

// FileError is a failure to read a model file. Its message names the file
// and says what is wrong, e.g. "m.nbm: truncated (40 of 1052 bytes)".
type FileError struct {
	Name string // the file name as given to Load or Decode
	Err  error  // ErrNotModel, ErrTruncated, ErrCorrupt, ErrNewer, ErrTooLarge or an I/O error
	Msg  string // the message after "Name: "
}

// Error returns "Name: Msg".
func (e *FileError) Error() string { return e.Name + ": " + e.Msg }

// Unwrap returns Err and ErrModelFile, for errors.Is.
func (e *FileError) Unwrap() []error { return []error{e.Err, ErrModelFile} }

func fileErr(name string, kind error, format string, args ...any) *FileError {
	return &FileError{Name: name, Err: kind, Msg: fmt.Sprintf(format, args...)}
}

func ioErr(name string, err error) *FileError {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &FileError{Name: name, Err: err, Msg: msg}
}

func truncated(name string, got int, want uint64) *FileError {
	return fileErr(name, ErrTruncated, "truncated (%d of %d bytes)", got, want)
}

// Load reads the model file at path; see Decode for the checks and the
// errors.
func Load(path string) (*Model, error) {
	m, _, err := load(path, nil)
	return m, err
}

// load is Load that also returns the file's size and copies every byte it
// reads to tee, when tee is not nil.
func load(path string, tee io.Writer) (*Model, int64, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, 0, ioErr(path, err)
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	var r io.Reader = bufio.NewReaderSize(f, 1<<16)
	if tee != nil {
		r = io.TeeReader(r, tee)
	}
	m, err := decodeReader(r, path, size)
	return m, size, err
}

// Save writes m to path atomically with fsutil.WriteFile: into a
// temporary file in the same folder, synced, renamed over path, the folder
// synced. If writing fails, path is left as it was (an old model intact)
// and the temporary file is removed, so an interrupted train never leaves
// a half-written model. A path that exists and is not a regular file is
// refused; a symlink to one is written through. A new file gets mode 0666
// less the umask, a replaced one keeps its mode. Everything that needs
// memory in proportion to the model is done before the temporary file is
// created.
func Save(path string, m *Model) error {
	enc, err := encodingOf(m)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return fsutil.WriteFile(path, enc.writeTo)
}
