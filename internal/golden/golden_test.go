package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "x.golden"), []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, got string
		fail      bool
	}{{"x.golden", "same\n", false}, {"x.golden", "other\n", true}, {"missing.golden", "", true}} {
		r := &recorder{TB: t}
		Check(r, tt.name, tt.got)
		if r.failed != tt.fail {
			t.Errorf("%s %q: failed %v, want %v", tt.name, tt.got, r.failed, tt.fail)
		}
	}
}
