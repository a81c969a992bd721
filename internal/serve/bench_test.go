package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// nullWriter is a ResponseWriter that keeps only the status, so the
// benchmarks measure the server's work and not a recorder's.
type nullWriter struct {
	h    http.Header
	code int
}

func (w *nullWriter) Header() http.Header         { return w.h }
func (w *nullWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nullWriter) WriteHeader(code int)        { w.code = code }

// benchPosts are synthetic posts of about 1,200 bytes, the median size of
// a 20 Newsgroups post, from the toy model's words.
func benchPosts(n int) []string {
	words := strings.Fields("the engine of my car needs oil senate votes on the tax bill rocket launch orbit nasa station encryption keys pgp gpu renders textures polygons")
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for j := 0; b.Len() < 1200; j++ {
			b.WriteString(words[(i*7+j*13)%len(words)])
			b.WriteByte(' ')
		}
		out[i] = b.String()
	}
	return out
}

// benchServe sends the bodies in turn to the handler, b.N times, and
// reports documents/s (docs per body).
func benchServe(b *testing.B, bodies [][]byte, docs int) {
	benchServeAt(b, copyModel(b, "multinomial-scaled-v2.nbm", b.TempDir(), "m.nbm"), bodies, docs)
}

// benchServeAt is benchServe with the model at path.
func benchServeAt(b *testing.B, path string, bodies [][]byte, docs int) {
	s, err := New(testConfig(ModelSpec{"m", path}), nil)
	if err != nil {
		b.Fatal(err)
	}
	w := &nullWriter{h: http.Header{}}
	r, _ := http.NewRequest("POST", "/v1/predict", nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := bodies[i%len(bodies)]
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		w.code = 0
		s.ServeHTTP(w, r)
		if w.code != 200 && w.code != 0 {
			b.Fatalf("status %d", w.code)
		}
	}
	b.ReportMetric(float64(b.N*docs)/b.Elapsed().Seconds(), "docs/s")
}

func BenchmarkPredictOne(b *testing.B) {
	var bodies [][]byte
	for _, p := range benchPosts(64) {
		body, _ := json.Marshal(map[string]string{"text": p})
		bodies = append(bodies, body)
	}
	benchServe(b, bodies, 1)
}

func BenchmarkPredictBatch(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			body, _ := json.Marshal(map[string][]string{"texts": benchPosts(n)})
			benchServe(b, [][]byte{body}, n)
		})
	}
}
