package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// fileHeader is the JSON header at the start of the payload. It is decoded
// strictly (see decodeHeader): a key that is not a field here, or a
// required key that is missing, makes the file corrupt. A field added for
// a new model kind or setting needs nothing more than its struct field
// (with omitempty when files without it stay valid); see requiredKeys.
type fileHeader struct {
	Classes   []string           `json:"classes"`
	Params    Params             `json:"params"`
	Settings  vectorize.Settings `json:"settings"`
	Terms     int                `json:"terms"`  // V
	NDocs     int                `json:"n_docs"` // vocabulary's fitted documents
	Binary    bool               `json:"binary"`
	Stats     bool               `json:"stats"` // NB sufficient statistics follow B
	Version   string             `json:"nbtext_version"`
	CreatedBy string             `json:"created_by"`
	Fields    *Fields            `json:"fields,omitempty"`      // version 3
	Multi     bool               `json:"multi_label,omitempty"` // version 3
	Auto      json.RawMessage    `json:"auto,omitempty"`        // how 'train --auto' chose the model
	History   []Step             `json:"history,omitempty"`     // 'nbtext update' and 'nbtext forget'
	Input     *InputNames        `json:"input,omitempty"`       // the corpus's label and text names (Meta.Input)
	Trained   string             `json:"trained,omitempty"`     // how streaming changed the fit (Meta.Trained)
}

// requiredV2 lists the keys every header of format versions 1 and 2 holds
// (nested keys as "params.alpha"): the fields without omitempty when
// version 2 was the newest. Fields added to the structs since are optional
// in those versions, so that files written before them still load.
var requiredV2 = []string{
	"classes", "params", "settings", "terms", "n_docs", "binary", "stats", "nbtext_version", "created_by",
	"params.alpha", "params.beta", "params.prior", "params.c", "params.penalty", "params.solver",
	"params.epochs", "params.batch_size", "params.seed",
	"settings.lowercase", "settings.stop_words", "settings.ngram_min", "settings.ngram_max",
	"settings.min_df", "settings.max_df", "settings.max_features", "settings.select",
	"settings.weighting", "settings.sublinear_tf", "settings.norm",
}

// requiredKeys returns the keys a header of format version v must hold:
// requiredV2 up to version 2; for later versions, every field of
// fileHeader and of the structs it nests whose json tag lacks omitempty,
// as the struct definitions say.
func requiredKeys(v int) []string {
	if v <= 2 {
		return requiredV2
	}
	return structKeys(reflect.TypeFor[fileHeader](), "")
}

// structKeys lists the keys of the fields of struct type t without
// omitempty, prefixed by prefix, descending into required struct fields.
func structKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			keys = append(keys, structKeys(ft, prefix)...) // promoted fields
			continue
		}
		if name == "-" || slices.Contains(strings.Split(opts, ","), "omitempty") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys = append(keys, prefix+name)
		if ft.Kind() == reflect.Struct {
			keys = append(keys, structKeys(ft, prefix+name+".")...)
		}
	}
	return keys
}

// presentKeys adds to keys every key of the JSON object raw whose value is
// not null, nested objects' keys as "outer.inner".
func presentKeys(raw json.RawMessage, prefix string, keys map[string]bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return
	}
	for k, v := range obj {
		if string(bytes.TrimSpace(v)) == "null" {
			continue
		}
		keys[prefix+k] = true
		presentKeys(v, prefix+k+".", keys)
	}
}

// parseHeaderJSON decodes a header of format version v strictly: no key
// that fileHeader lacks (json matches names without regard to case, so a
// misspelt case is caught as a missing key), every required key present
// and not null, nothing after the object.
func parseHeaderJSON(b []byte, v int) (*fileHeader, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var h fileHeader
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("header: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("header: data after the JSON object")
	}
	present := map[string]bool{}
	presentKeys(b, "", present)
	for _, k := range requiredKeys(v) {
		if !present[k] {
			return nil, fmt.Errorf("header: missing key %q", k)
		}
	}
	return &h, nil
}

// decodeHeader reads the JSON header that opens every payload version and
// checks what does not depend on the version.
func decodeHeader(c *cursor, kind Kind, version int) (*fileHeader, error) {
	hj := c.next(uint64(c.u32()))
	if !c.ok {
		return nil, errors.New("header length exceeds the payload")
	}
	h, err := parseHeaderJSON(hj, version)
	if err != nil {
		return nil, err
	}
	if err := checkHashVersion(h, version); err != nil {
		return nil, err
	}
	if err := checkHistory(h.History); err != nil {
		return nil, err
	}
	if len(h.Classes) == 0 {
		return nil, errors.New("no classes")
	}
	if h.Terms < 0 || h.NDocs < 0 {
		return nil, fmt.Errorf("header: %d terms, %d documents", h.Terms, h.NDocs)
	}
	if h.Stats != (kind.IsNB() && !h.Multi) {
		return nil, fmt.Errorf("%s model with stats = %v", kind, h.Stats)
	}
	return h, nil
}

// model returns the Model the header describes, with its vocabulary built
// from the decoded terms and frequencies and no weights yet.
func (h *fileHeader) model(kind Kind, terms []string, df []int32, cf []int64) (*Model, error) {
	vocab, err := vectorize.NewVocabulary(h.Settings, terms, df, cf, h.NDocs)
	if err != nil {
		return nil, err
	}
	m := &Model{
		Kind: kind, Classes: h.Classes, Vocab: vocab, Params: h.Params,
		Meta:   Meta{Version: h.Version, CreatedBy: h.CreatedBy, Auto: h.Auto, History: h.History, Input: h.Input, Trained: h.Trained},
		Binary: h.Binary, MultiLabel: h.Multi,
	}
	if err := m.SetFields(h.Fields); err != nil {
		return nil, err
	}
	return m, nil
}
