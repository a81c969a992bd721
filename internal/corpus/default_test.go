package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		tarball, dataDir, xdg, home string
		want                        string
	}{
		{"/x/copy.tgz", "/d", "/c", "/h", "/x/copy.tgz"},
		{"", "/d", "/c", "/h", "/d/20news-bydate.tar.gz"},
		{"", "", "/c", "/h", "/c/nbtext/20news-bydate.tar.gz"},
		{"", "", "", "/h", "/h/.cache/nbtext/20news-bydate.tar.gz"},
	}
	for _, tt := range tests {
		t.Setenv(TarballEnv, tt.tarball)
		t.Setenv("NBTEXT_DATA_DIR", tt.dataDir)
		t.Setenv("XDG_CACHE_HOME", tt.xdg)
		t.Setenv("HOME", tt.home)
		if got := DefaultPath(); got != filepath.FromSlash(tt.want) {
			t.Errorf("%+v: DefaultPath() = %q, want %q", tt, got, tt.want)
		}
	}
}

func TestFindDefault(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(TarballEnv, "")
	t.Setenv("NBTEXT_DATA_DIR", dir)
	_, err := FindDefault()
	want := "20news: no 20 Newsgroups archive at " + filepath.Join(dir, "20news-bydate.tar.gz") +
		": run scripts/fetch-20news.sh (or set NBTEXT_20NEWS_TARBALL to a copy of 20news-bydate.tar.gz)"
	if err == nil || err.Error() != want {
		t.Errorf("missing cache: %v\nwant %s", err, want)
	}
	p := filepath.Join(dir, "20news-bydate.tar.gz")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := FindDefault(); err != nil || got != p {
		t.Errorf("FindDefault() = %q, %v; want %q", got, err, p)
	}
	t.Setenv(TarballEnv, filepath.Join(dir, "gone.tgz"))
	if _, err := FindDefault(); err == nil || !strings.HasPrefix(err.Error(), TarballEnv+"="+filepath.Join(dir, "gone.tgz")+": ") {
		t.Errorf("missing $%s: %v", TarballEnv, err)
	}
}
