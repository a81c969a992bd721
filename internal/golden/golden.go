package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

func init() {
	// A test package may define -update itself; Check reads whichever
	// flag is registered.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata")
	}
}

// Updating reports whether the test binary runs with -update: a test
// package that rewrites other fixtures under the same flag asks here
// rather than defining the flag again.
func Updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Check compares got with the file testdata/name, or writes got to it when
// the test runs with -update. A missing file or a difference fails t.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (if the change is intended, run the test with -update and review the diff)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
