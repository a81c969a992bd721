package corpus

import (
	"archive/tar"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// member is one archive member for writeTar; a name ending in "/" is a
// folder.
type member struct {
	name, body string
}

// tarBytes builds a tar archive of members in the given order, gzipped when
// gz is set.
func tarBytes(t testing.TB, members []member, gz bool) []byte {
	t.Helper()
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for _, m := range members {
		h := &tar.Header{Name: m.name, Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(m.body))}
		if strings.HasSuffix(m.name, "/") {
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(m.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if !gz {
		return raw.Bytes()
	}
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(raw.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// writeTar writes an archive of members to dir/name, gzipped unless the
// name ends in ".tar", and returns its path.
func writeTar(t testing.TB, dir, name string, members []member) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, tarBytes(t, members, !strings.HasSuffix(name, ".tar")), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// treeMembers returns the folders and files below root as archive members
// under prefix, in byte order of their paths.
func treeMembers(t testing.TB, root, prefix string) []member {
	t.Helper()
	var ms []member
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel := prefix + filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			ms = append(ms, member{name: rel + "/"})
			return nil
		}
		b, err := os.ReadFile(p)
		ms = append(ms, member{name: rel, body: string(b)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].name < ms[j].name })
	return ms
}

// writeTree creates files (slash paths relative to a new temporary folder,
// a name ending in "/" an empty folder) and returns the folder.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// collect gathers warnings.
type collect []string

func (c *collect) warn(msg string) { *c = append(*c, msg) }

// ids returns the IDs of c's documents.
func ids(c *Corpus) []string {
	out := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		out[i] = d.ID
	}
	return out
}

// tarMembers returns the regular files of the tar stream r with their raw
// bytes.
func tarMembers(tb testing.TB, r io.Reader) []member {
	tb.Helper()
	var ms []member
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return ms
		}
		if err != nil {
			tb.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			tb.Fatal(err)
		}
		ms = append(ms, member{name: h.Name, body: string(b)})
	}
}
