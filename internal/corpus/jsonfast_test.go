package corpus

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

// jsonSpecs are the field settings the fast path is checked with.
var jsonSpecs = []Options{
	{},
	{MultiLabel: true},
	{MultiLabel: true, LabelSep: ","},
	{LabelField: "y", TextFields: []string{"title", "body"}, ExtraFields: []string{"lang", "n"}},
	{LabelField: "text", TextFields: []string{"text"}},
}

// checkFlatJSON checks that when flatJSON and flatDocument take line, the
// document (or error) is encoding/json's, and returns whether they did.
func checkFlatJSON(t *testing.T, line []byte, opts *Options) bool {
	t.Helper()
	if !utf8.Valid(line) || hasNUL(line) {
		return false
	}
	spec := opts.fields()
	keys := append(append([]string{spec.label}, spec.text...), spec.extra...)
	vals := make([]flatValue, len(keys))
	if !flatJSON(line, keys, vals) {
		return false
	}
	var buf []byte
	got, ok, gerr := flatDocument("f:1", spec, vals, opts, &buf)
	if !ok {
		return false
	}
	// The transient document (Options.Transient) reads the same, its
	// text sharing the line or buf.
	shared := *opts
	shared.shared = true
	sgot, _, serr := flatDocument("f:1", spec, vals, &shared, &buf)
	if (gerr == nil) != (serr == nil) || !reflect.DeepEqual(got, sgot) {
		t.Fatalf("%q: transient %#v (%v), copied %#v (%v)", line, sgot, serr, got, gerr)
	}
	want, werr := decodeJSONL("f:1", line, spec, opts)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("%q: error %v, encoding/json %v", line, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %#v\nwant %#v", line, got, want)
	}
	return true
}

func TestFlatJSONMatchesEncodingJSON(t *testing.T) {
	fast := []string{
		`{"label":"pos","text":"a film"}`,
		` { "text" : "say \"hi\"\\ \/ \b\f\n\r\t<br />" , "label" : "neg" } ` + "\r",
		`{"label":1,"text":"x","id":123}`,
		`{"label":-0.5e+3,"text":""}`,
		`{"label":true,"text":"é 東京 😀","other":null,"z":false}`,
		`{"y":"a","title":"T","body":"B","lang":"fr","n":42}`,
		`{"y":"a","title":"T","body":"B","lang":null}`,
		`{"text":"same"}`,
		`{"label":"a,b","text":"t"}`,
		`{"label":["a","b"],"text":"x"}`,
		`{"label": [ "a" , 2, true, "c\"d", "a,e" ] ,"text":"x","tags":["p",1]}`,
		`{"label":["x"],"text":"t","n":[1,"q"]}`,
		`{"label":[" "],"text":"t"}`,
	}
	for _, l := range fast {
		took := false
		for i := range jsonSpecs {
			took = checkFlatJSON(t, []byte(l), &jsonSpecs[i]) || took
		}
		if !took {
			t.Errorf("%q: the fast path did not take it", l)
		}
	}
	slow := []string{
		`{"label":"pos","text":"\u00e9"}`,
		`{"label":"pos","te\u0078t":"x"}`,
		`{"label":"pos","text":"x","text":"y"}`,
		`{"label":null,"text":"x"}`,
		`{"label":[],"text":"x"}`,
		`{"label":["a",null],"text":"x"}`,
		`{"label":["a",["b"]],"text":"x"}`,
		`{"label":["a",{"b":1}],"text":"x"}`,
		`{"label":["\u0061"],"text":"x"}`,
		`{"label":["a",],"text":"x"}`,
		`{"label":["a" "b"],"text":"x"}`,
		`{"label":["a"],"text":["x"]}`,
		`{"label":"a","text":{"b":1}}`,
		`{"label":"a","text":1}`,
		`{"label":"a"}`,
		`{"label":"a","text":"x"} x`,
		`{"label":"a","text":"x",}`,
		`{"label":"a","text":"x`,
		`{"label":"a","text":"x` + "\t" + `"}`,
		`{"label":"a","text":"x\q"}`,
		`{"label":01,"text":"x"}`,
		`{"label":1.,"text":"x"}`,
		`{"label":-,"text":"x"}`,
		`{"label":tru,"text":"x"}`,
		`{"label":"a" "text":"x"}`,
		`["a","b"]`,
		`null`,
		`{}`,
	}
	for _, l := range slow {
		if checkFlatJSON(t, []byte(l), &jsonSpecs[0]) {
			t.Errorf("%q: the fast path took it", l)
		}
	}
}

func FuzzFlatJSON(f *testing.F) {
	for _, s := range []string{
		`{"label":"pos","text":"a \"film\"\n"}`,
		`{"label":1,"text":"x","id":1e5,"b":true}`,
		`{"y":"a","title":"T","body":"B","lang":"fr","n":42}`,
		` {"label" : "a" , "text":"\\\/"} `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		for i := range jsonSpecs {
			checkFlatJSON(t, line, &jsonSpecs[i])
		}
	})
}
