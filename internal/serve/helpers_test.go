package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/predict"
)

// fixture is a pinned model file of package model.
func fixture(name string) string { return filepath.Join("..", "model", "testdata", name) }

// copyModel copies the fixture name to dir/as through a rename, as the
// trainers write, and returns the destination.
func copyModel(t testing.TB, name, dir, as string) string {
	t.Helper()
	b, err := os.ReadFile(fixture(name))
	if err != nil {
		t.Fatal(err)
	}
	return writeRename(t, dir, as, b)
}

// writeRename replaces dir/as with b by a rename.
func writeRename(t testing.TB, dir, as string, b []byte) string {
	t.Helper()
	dst := filepath.Join(dir, as)
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// syncBuffer is a log that tests read while the server writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testServer is a Server serving on a free port of 127.0.0.1.
type testServer struct {
	*Server
	url    string
	log    *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

// start serves cfg (its Models set by the caller) until the test ends.
func start(t *testing.T, cfg Config) *testServer {
	t.Helper()
	lg := &syncBuffer{}
	s, err := New(cfg, lg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{Server: s, url: "http://" + ln.Addr().String(), log: lg, cancel: cancel, done: make(chan error, 1)}
	go func() { ts.done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-ts.done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	return ts
}

// testConfig is DefaultConfig serving the given specs, with no watcher.
func testConfig(specs ...ModelSpec) Config {
	cfg := DefaultConfig()
	cfg.Models = specs
	cfg.Watch = 0
	return cfg
}

// post sends body to path and returns the status, the headers and the body.
func (ts *testServer) post(t *testing.T, path, body string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Post(ts.url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

func (ts *testServer) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(ts.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// predictJSON is what 'nbtext predict --input jsonl --format json' with
// opt writes for lines (JSONL objects) with the model at path.
func predictJSON(t *testing.T, path string, opt predict.Options, lines []string) string {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	opt.Input, opt.Format = predict.InputJSONL, predict.FormatJSON
	p, err := predict.New(m, opt)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := p.Stream(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), "stdin", &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// textLines are texts as JSONL objects.
func textLines(texts []string) []string {
	out := make([]string, len(texts))
	for i, s := range texts {
		b, _ := json.Marshal(map[string]string{"text": s})
		out[i] = string(b)
	}
	return out
}

// batchAnswer parses a batch answer into predict's output: one object per
// line, bytes kept.
func batchAnswer(t *testing.T, body string) (string, int64) {
	t.Helper()
	var got struct {
		Version     int64             `json:"version"`
		Predictions []json.RawMessage `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	var b strings.Builder
	for _, p := range got.Predictions {
		b.Write(p)
		b.WriteByte('\n')
	}
	return b.String(), got.Version
}

func mustLoad(t *testing.T, path string) *model.Model {
	t.Helper()
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var jsonMarshal = json.Marshal
