package serve

import (
	"strings"
	"testing"
)

// TestValidateSpecs: serve's -m values and settings, the first problem
// reported.
func TestValidateSpecs(t *testing.T) {
	for _, tc := range []struct {
		specs []string
		batch int
		want  string
	}{
		{[]string{"news.nbm", "spam=s.nbm"}, 10, ""},
		{nil, 0, "-m MODEL is required"},
		{[]string{"a=x.nbm", "a=y.nbm"}, 0, `two models are named "a"`},
		{[]string{"news.nbm"}, 0, "--max-batch must be > 0"},
	} {
		c := DefaultConfig()
		c.MaxBatch = tc.batch
		err := c.ValidateSpecs(tc.specs)
		if tc.want == "" {
			if err != nil || len(c.Models) != 2 || c.Models[0].Name != "news" || c.Models[1].Name != "spam" {
				t.Errorf("%v: %v, models %+v", tc.specs, err, c.Models)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: want %q, got %v", tc.specs, tc.want, err)
		}
	}
}
