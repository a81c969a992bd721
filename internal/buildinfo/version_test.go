package buildinfo

import (
	"runtime/debug"
	"strings"
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

func TestVersionText(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Path:      "github.com/nbtext/nbtext/cmd/nbtext",
		Main:      debug.Module{Path: "github.com/nbtext/nbtext", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "0a41d7b5c0ffee"},
			{Key: "vcs.time", Value: "2026-11-23T20:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := Text("", bi)
	for _, want := range []string{
		"nbtext dev\n",
		"module    github.com/nbtext/nbtext (devel)\n",
		"revision  0a41d7b5c0ffee (2026-11-23T20:00:00Z), with uncommitted changes\n",
		"go        go1.26.8\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Text lacks %q:\n%s", want, got)
		}
	}
	bi.Main.Version = "v1.2.3"
	bi.Settings = nil
	got = Text("", bi)
	if !strings.HasPrefix(got, "nbtext v1.2.3\n") || !strings.Contains(got, "github.com/nbtext/nbtext v1.2.3") || !strings.Contains(got, "revision  unknown") {
		t.Errorf("go install MODULE@v1.2.3:\n%s", got)
	}
	if got = Text("v9", bi); !strings.HasPrefix(got, "nbtext v9\n") {
		t.Errorf("-ldflags version:\n%s", got)
	}
}
