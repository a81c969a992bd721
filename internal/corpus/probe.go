package corpus

import (
	"bytes"
	"io"
)

// RecordLength returns the length of the record that starts at byte off
// of ra, its separator sep included (or up to the end of ra for a last
// record without one), when the bytes at off begin with head and the
// record, separator included, is at most limit bytes long; else 0. A reader of a regular,
// uncompressed file calls it once a record has outgrown its read buffer
// (head: what it has read of the record), to assemble the record in a
// buffer of exactly its length, not in pieces joined at the end, which
// take twice the record's length while they are copied (issue 28, item
// 7: lines of 200 MiB). The length is a hint: the file may change while
// it is read, so the reader must not rely on it.
func RecordLength(ra io.ReaderAt, off int64, head []byte, sep byte, limit int) int {
	if len(head) == 0 || len(head) > limit {
		return 0
	}
	check := head[:min(len(head), 256)]
	buf := make([]byte, 256<<10)
	n, err := ra.ReadAt(buf[:len(check)], off)
	if n != len(check) || !bytes.Equal(buf[:n], check) {
		return 0
	}
	pos := int64(len(head))
	for pos <= int64(limit) {
		n, err = ra.ReadAt(buf, off+pos)
		if i := bytes.IndexByte(buf[:n], sep); i >= 0 {
			if pos+int64(i)+1 > int64(limit) {
				return 0
			}
			return int(pos) + i + 1
		}
		pos += int64(n)
		if err == io.EOF {
			if pos > int64(limit) {
				return 0
			}
			return int(pos)
		}
		if err != nil || n == 0 {
			return 0
		}
	}
	return 0
}
