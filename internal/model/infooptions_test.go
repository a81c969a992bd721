package model

import (
	"strings"
	"testing"
)

// TestInfoOptionsValidate: info's --top and --format out of range.
func TestInfoOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		o    InfoOptions
		want string
	}{
		{InfoOptions{Top: 0, Format: "json"}, ""},
		{InfoOptions{Top: -1, Format: "csv"}, "--top must be ≥ 0, got -1"},
		{InfoOptions{Top: 10, Format: "csv"}, `--format must be table or json, got "csv"`},
	} {
		err := tc.o.Validate()
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: want %q, got %v", tc.o, tc.want, err)
		}
	}
}
