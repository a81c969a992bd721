package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	rel := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}
	dev := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	for _, c := range []struct {
		ld   string
		bi   *debug.BuildInfo
		want string
	}{
		{"v9", rel, "v9"},
		{"", rel, "v1.2.3"},
		{"", dev, "dev"},
		{"", &debug.BuildInfo{}, "dev"},
		{"", nil, "dev"},
	} {
		if got := Version(c.ld, c.bi); got != c.want {
			t.Errorf("Version(%q, %v) = %q, want %q", c.ld, c.bi, got, c.want)
		}
	}
}
