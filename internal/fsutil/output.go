package fsutil

import (
	"fmt"
	"os"
)

// CheckOutput fails when path exists and is not a regular file, or is
// the same file as one of inputs (empty names are skipped): replacing it
// would destroy that file. A path that does not exist yet is fine.
func CheckOutput(path string, inputs ...string) error {
	fo, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if !fo.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file: refusing to replace it", path)
	}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if fi, err := os.Stat(in); err == nil && os.SameFile(fi, fo) {
			return fmt.Errorf("%s is also an input: writing it would destroy that input", path)
		}
	}
	return nil
}
