//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is stderr read while the server writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeCommand runs 'nbtext serve' in-process on a free port: its
// answers are predict's JSON lines, SIGHUP reloads the model and SIGTERM
// shuts it down with exit 0.
func TestServeCommand(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "toy.nbm")
	if r := nbtext(t, "", "train", writeFile(t, dir, "c.tsv", toyTSV), "-o", m, "-q"); r.code != 0 {
		t.Fatalf("train: %s", r.err)
	}
	var errb lockedBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(context.Background(), []string{"serve", "-m", m, "--addr", "127.0.0.1:0", "--watch", "0"}, streams{In: strings.NewReader(""), Out: io.Discard, Err: &errb})
	}()
	re := regexp.MustCompile(`listening on (http://\S+)`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %s", errb.String())
		}
		if mt := re.FindStringSubmatch(errb.String()); mt != nil {
			url = mt[1]
		}
	}
	docs := []string{"pgp encryption keys", "the gpu renders polygons", "", "nothing known here"}
	var jsonl strings.Builder
	for _, d := range docs {
		b, _ := json.Marshal(map[string]string{"text": d})
		jsonl.Write(append(b, '\n'))
	}
	want := nbtext(t, jsonl.String(), "predict", "-m", m, "--format", "json", "--input", "jsonl", "--top-k", "2", "--explain", "2")
	texts, _ := json.Marshal(docs)
	resp, err := http.Post(url+"/v1/predict", "application/json", strings.NewReader(`{"texts":`+string(texts)+`,"top_k":2,"explain":2}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Predictions []json.RawMessage }
	json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	var lines strings.Builder
	for _, p := range got.Predictions {
		lines.Write(append(p, '\n'))
	}
	if want.code != 0 || lines.String() != want.out {
		t.Errorf("serve answered\n%s\npredict\n%s", lines.String(), want.out)
	}

	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(errb.String(), "version 2"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("SIGHUP did not reload: %s", errb.String())
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case c := <-code:
		if c != 0 || !strings.Contains(errb.String(), "stopped") {
			t.Errorf("exit %d after SIGTERM: %s", c, errb.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("SIGTERM did not stop the server")
	}
}

// TestServeUsage checks the exit codes of bad command lines and models.
func TestServeUsage(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	good, corrupt, _ := damagedModels(t, dir)
	check(t, nbtext(t, "", "serve"), exitUsage, "-m MODEL is required")
	check(t, nbtext(t, "", "serve", "-m", good, "-m", good), exitUsage, "two models are named")
	check(t, nbtext(t, "", "serve", "-m", good, "--max-batch", "0"), exitUsage, "--max-batch must be > 0")
	check(t, nbtext(t, "", "serve", "-m", "a="+corrupt, "--addr", "127.0.0.1:0"), exitBadModel, "corrupt.nbm")
	check(t, nbtext(t, "", "serve", "-m", good, "--addr", "256.0.0.1:http"), exitError, "listen")
}
