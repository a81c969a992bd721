package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// withHeader returns the model file b with its JSON header replaced by
// hdr, the payload length and checksum made right again.
func withHeader(t *testing.T, b, hdr []byte) []byte {
	t.Helper()
	old := binary.LittleEndian.Uint32(b[headerSize:])
	rest := b[headerSize+4+int(old) : len(b)-trailerSize]
	out := bytes.Clone(b[:headerSize])
	out = binary.LittleEndian.AppendUint32(out, uint32(len(hdr)))
	out = append(out, hdr...)
	out = append(out, rest...)
	binary.LittleEndian.PutUint64(out[12:], uint64(len(out)-headerSize))
	sum := sha256.Sum256(out)
	return append(out, sum[:]...)
}

// headerOf returns the JSON header of the model file b as a map.
func headerOf(t *testing.T, b []byte) map[string]any {
	t.Helper()
	n := binary.LittleEndian.Uint32(b[headerSize:])
	var h map[string]any
	if err := json.Unmarshal(b[headerSize+4:headerSize+4+int(n)], &h); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestDecodeStrictHeader: a file whose checksum is valid but whose header
// lacks a required key, spells one differently or has one more is corrupt,
// in every format version; the untouched header loads.
func TestDecodeStrictHeader(t *testing.T) {
	sub := func(h map[string]any, key string) map[string]any { return h[key].(map[string]any) }
	cases := []struct {
		name   string
		mutate func(h map[string]any) any // returns what to marshal
		msg    string
	}{
		{"untouched", func(h map[string]any) any { return h }, ""},
		{"no params", func(h map[string]any) any { delete(h, "params"); return h }, `missing key "params"`},
		{"no alpha", func(h map[string]any) any { delete(sub(h, "params"), "alpha"); return h }, `missing key "params.alpha"`},
		{"alpha null", func(h map[string]any) any { sub(h, "params")["alpha"] = nil; return h }, `missing key "params.alpha"`},
		{"params null", func(h map[string]any) any { h["params"] = nil; return h }, `missing key "params"`},
		{"misspelt alpha", func(h map[string]any) any {
			p := sub(h, "params")
			p["alhpa"] = p["alpha"]
			delete(p, "alpha")
			return h
		}, `unknown field "alhpa"`},
		{"alpha in capitals", func(h map[string]any) any {
			p := sub(h, "params")
			p["Alpha"] = 0.5
			delete(p, "alpha")
			return h
		}, `missing key "params.alpha"`},
		{"no weighting", func(h map[string]any) any { delete(sub(h, "settings"), "weighting"); return h }, `missing key "settings.weighting"`},
		{"unknown top-level key", func(h map[string]any) any { h["extra"] = 1; return h }, `unknown field "extra"`},
		{"unknown setting", func(h map[string]any) any { sub(h, "settings")["stemmer"] = "porter"; return h }, `unknown field "stemmer"`},
		{"no created_by", func(h map[string]any) any { delete(h, "created_by"); return h }, `missing key "created_by"`},
	}
	var paths []string
	for _, fixture := range []string{"bernoulli", "logreg"} {
		for v := MinFormatVersion; v <= 2; v++ {
			paths = append(paths, fixturePath(fixture, v))
		}
	}
	// Version 3 is written for models with record fields or several labels.
	paths = append(paths, fixturePath("mixed", 3), fixturePath("logreg-fields", 3), fixturePath("multilabel", 3))
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			hdr, err := json.Marshal(c.mutate(headerOf(t, b)))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(bytes.NewReader(withHeader(t, b, hdr)), "m.nbm")
			switch {
			case c.msg == "" && err != nil:
				t.Errorf("%s, %s: %v", path, c.name, err)
			case c.msg != "" && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), c.msg)):
				t.Errorf("%s, %s: err = %v, want corrupt with %q", path, c.name, err, c.msg)
			}
		}
		trailing := append(bytes.Clone(b[headerSize+4:headerSize+4+int(binary.LittleEndian.Uint32(b[headerSize:]))]), " {}"...)
		if _, err := Decode(bytes.NewReader(withHeader(t, b, trailing)), "m.nbm"); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: data after the header's JSON: err = %v", path, err)
		}
	}
}

// TestRequiredKeys: the keys version 1 and 2 files must hold are fields of
// today's structs without omitempty, so the list cannot require what a
// build no longer writes; and the struct-derived list of later versions
// holds them all.
func TestRequiredKeys(t *testing.T) {
	derived := requiredKeys(FormatVersion + 1)
	for _, k := range requiredV2 {
		if !slices.Contains(derived, k) {
			t.Errorf("required key %q of version 2 is no longer a field without omitempty", k)
		}
	}
	// What Encode writes always has every derived key.
	b := encode(t, fixtures(t)["bernoulli"])
	present := map[string]bool{}
	n := binary.LittleEndian.Uint32(b[headerSize:])
	presentKeys(b[headerSize+4:headerSize+4+int(n)], "", present)
	for _, k := range derived {
		if !present[k] {
			t.Errorf("Encode leaves out required key %q", k)
		}
	}
	type inner struct {
		A int `json:"a"`
		B int `json:"b,omitempty"`
	}
	type Embedded struct {
		E int `json:"e"`
	}
	type outer struct {
		Embedded
		In   inner  `json:"in"`
		Opt  *inner `json:"opt,omitempty"`
		Skip int    `json:"-"`
		Bare int
	}
	want := []string{"e", "in", "in.a", "Bare"}
	if got := structKeys(reflect.TypeFor[outer](), ""); !slices.Equal(got, want) {
		t.Errorf("structKeys = %v, want %v", got, want)
	}
}
