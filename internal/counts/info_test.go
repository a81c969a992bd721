package counts

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfoWrite checks that Write chooses the table or the JSON writer by
// its format, and refuses another format naming the flag.
func TestInfoWrite(t *testing.T) {
	info, err := Inspect(filepath.Join("testdata", "v1-no-inputs.nbc"))
	if err != nil {
		t.Fatal(err)
	}
	for format, write := range map[string]func(*bytes.Buffer) error{
		"table": func(b *bytes.Buffer) error { return info.WriteTable(b) },
		"json":  func(b *bytes.Buffer) error { return info.WriteJSON(b) },
	} {
		var got, want bytes.Buffer
		if err := info.Write(&got, format); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.Len() == 0 || got.String() != want.String() {
			t.Errorf("%s: wrote\n%s\nwant\n%s", format, got.String(), want.String())
		}
	}
	var b bytes.Buffer
	if err := info.Write(&b, "xml"); err == nil || !strings.Contains(err.Error(), "--format") || b.Len() > 0 {
		t.Errorf("format xml: %v, wrote %q", err, b.String())
	}
}
