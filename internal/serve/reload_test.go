package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/predict"
)

// waitFor polls cond every 10 ms for at most 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestReloadByRename checks that the watcher loads a model file replaced
// by a rename, that a damaged replacement is refused while the old model
// keeps answering, and that Reload (what SIGHUP calls) loads a good file.
func TestReloadByRename(t *testing.T) {
	dir := t.TempDir()
	path := copyModel(t, "multinomial-scaled-v2.nbm", dir, "m.nbm")
	cfg := testConfig(ModelSpec{"m", path})
	cfg.Watch = 10 * time.Millisecond
	ts := start(t, cfg)
	lines := textLines(testTexts)
	body := `{"texts":` + mustJSON(testTexts) + `}`
	wantA := predictJSON(t, path, predict.Options{}, lines)
	ask := func() (string, int64) {
		code, _, b := ts.post(t, "/v1/predict", body)
		if code != 200 {
			t.Fatalf("%d %s", code, b)
		}
		return batchAnswer(t, b)
	}
	if got, v := ask(); got != wantA || v != 1 {
		t.Fatalf("version %d:\n%s\nwant\n%s", v, got, wantA)
	}

	copyModel(t, "complement-v2.nbm", dir, "m.nbm")
	wantB := predictJSON(t, path, predict.Options{}, lines)
	if wantA == wantB {
		t.Fatal("the two fixtures answer alike: the test would prove nothing")
	}
	waitFor(t, "the renamed model", func() bool { return ts.slots[0].cur.Load().version == 2 })
	if got, v := ask(); got != wantB || v != 2 {
		t.Fatalf("after rename, version %d:\n%s\nwant\n%s", v, got, wantB)
	}

	// A damaged file (one byte flipped, so the checksum fails), then a
	// cut one: refused, logged, version 2 keeps serving.
	good, _ := os.ReadFile(fixture("multinomial-scaled-v2.nbm"))
	bad := append([]byte(nil), good...)
	bad[len(bad)/2] ^= 0x40
	writeRename(t, dir, "m.nbm", bad)
	waitFor(t, "the refusal", func() bool { return ts.slots[0].reloadsBad.Load() == 1 })
	writeRename(t, dir, "m.nbm", good[:len(good)-40])
	waitFor(t, "the second refusal", func() bool { return ts.slots[0].reloadsBad.Load() == 2 })
	time.Sleep(50 * time.Millisecond) // the watcher does not retry an unchanged file
	if n := ts.slots[0].reloadsBad.Load(); n != 2 {
		t.Errorf("%d refusals, want 2: an unchanged damaged file was tried again", n)
	}
	if got, v := ask(); got != wantB || v != 2 {
		t.Fatalf("after a damaged file, version %d:\n%s\nwant\n%s", v, got, wantB)
	}
	if log := ts.log.String(); !strings.Contains(log, "model m: reload refused: ") || !strings.Contains(log, "version 2 keeps serving") {
		t.Errorf("log does not report the refusal:\n%s", log)
	}
	_, models := ts.get(t, "/v1/models")
	if !strings.Contains(models, `"version":2`) || !strings.Contains(models, `"reload_error":"`) {
		t.Errorf("/v1/models: %s", models)
	}
	if err := ts.Reload(); err == nil {
		t.Error("Reload of a damaged file: no error")
	}

	// A good file again, then Reload, as on SIGHUP: it loads the file
	// even though it has not changed.
	copyModel(t, "multinomial-scaled-v2.nbm", dir, "m.nbm")
	waitFor(t, "the good file", func() bool { return ts.slots[0].cur.Load().version == 3 })
	if err := ts.Reload(); err != nil {
		t.Fatal(err)
	}
	if got, v := ask(); got != wantA || v != 4 {
		t.Fatalf("after Reload, version %d:\n%s\nwant\n%s", v, got, wantA)
	}
	_, metrics := ts.get(t, "/metrics")
	for _, want := range []string{`nbtext_model_version{model="m"} 4`, `nbtext_model_reloads_total{model="m",result="ok"} 3`, `nbtext_model_reloads_total{model="m",result="refused"} 3`} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestReloadUnderLoad reloads a model 20 times while clients keep asking:
// no request fails, and every answer is the one of the version its
// header names, never a mix.
func TestReloadUnderLoad(t *testing.T) {
	dir := t.TempDir()
	path := copyModel(t, "multinomial-scaled-v2.nbm", dir, "m.nbm")
	cfg := testConfig(ModelSpec{"m", path})
	cfg.Watch = 2 * time.Millisecond
	ts := start(t, cfg)
	lines := textLines(testTexts)
	want := map[bool]string{true: predictJSON(t, path, predict.Options{}, lines)}
	want[false] = predictJSON(t, fixture("complement-v2.nbm"), predict.Options{}, lines)
	body := `{"texts":` + mustJSON(testTexts) + `}`
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var asked, failed atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Post(ts.url+"/v1/predict", "application/json", strings.NewReader(body))
				if err != nil {
					failed.Add(1)
					continue
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				asked.Add(1)
				got, v := batchAnswer(t, string(b))
				// Odd versions are the multinomial fixture, even ones complement.
				if resp.StatusCode != 200 || got != want[v%2 == 1] {
					failed.Add(1)
				}
			}
		}()
	}
	names := []string{"complement-v2.nbm", "multinomial-scaled-v2.nbm"}
	for i := range 20 {
		copyModel(t, names[i%2], dir, "m.nbm")
		waitFor(t, "a reload", func() bool { return ts.slots[0].cur.Load().version == int64(i+2) })
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if failed.Load() > 0 || asked.Load() < 20 {
		t.Errorf("%d of %d requests failed or had a wrong answer", failed.Load(), asked.Load())
	}
}

// TestOverload checks that a request finding every slot busy for
// QueueWait gets a 503 with Retry-After, and that the server then serves.
func TestOverload(t *testing.T) {
	cfg := testConfig(ModelSpec{"m", copyModel(t, "multinomial-scaled-v2.nbm", t.TempDir(), "m.nbm")})
	cfg.MaxConcurrent, cfg.QueueWait = 1, 20*time.Millisecond
	ts := start(t, cfg)
	// A slow client holds the only slot: headers sent, body not finished.
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/predict HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n{\"text\":")
	waitFor(t, "the slow request", func() bool { return ts.met.inFlight.Load() == 1 })
	code, h, body := ts.post(t, "/v1/predict", `{"text":"a"}`)
	if code != 503 || h.Get("Retry-After") != "1" || !strings.Contains(body, "overloaded") {
		t.Errorf("%d %v %s, want a 503", code, h, body)
	}
	io.WriteString(c, `"car"}`+"\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("slow request: %v %v", resp, err)
	}
	if code, _, _ := ts.post(t, "/v1/predict", `{"text":"a"}`); code != 200 {
		t.Errorf("after the overload: %d", code)
	}
}

// TestHostileConnections checks the connection limit (over it the
// connection idle the longest makes room; with every connection busy, a
// 503 and close), the header timeout that cuts a slowloris client, and
// oversized headers.
func TestHostileConnections(t *testing.T) {
	cfg := testConfig(ModelSpec{"m", copyModel(t, "multinomial-scaled-v2.nbm", t.TempDir(), "m.nbm")})
	cfg.MaxConns, cfg.ReadHeaderTimeout, cfg.MaxHeaderBytes = 3, 300*time.Millisecond, 1024
	ts := start(t, cfg)
	addr := strings.TrimPrefix(ts.url, "http://")
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// Slowloris: three connections that never end their headers fill the
	// limit; a real client still gets in, closing the oldest of them.
	var slow []net.Conn
	for range 3 {
		c := dial()
		io.WriteString(c, "POST /v1/predict HTTP/1.1\r\nHo")
		slow = append(slow, c)
		waitFor(t, "the connection", func() bool { return ts.met.conns.Load() == int64(len(slow)) })
	}
	if code, _, body := ts.post(t, "/v1/predict", `{"text":"a"}`); code != 200 {
		t.Errorf("a client over the limit of idle connections: %d %s", code, body)
	}
	slow[0].SetReadDeadline(time.Now().Add(time.Second))
	if _, err := io.ReadAll(slow[0]); err != nil {
		t.Errorf("the oldest idle connection was not closed: %v", err)
	}
	// The header timeout closes the other slow ones.
	for _, c := range slow[1:] {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.ReadAll(c); err != nil {
			t.Errorf("slowloris connection not closed by the server: %v", err)
		}
	}
	http.DefaultClient.CloseIdleConnections()
	waitFor(t, "the connections to close", func() bool { return ts.met.conns.Load() == 0 })

	// Three requests in progress (bodies not finished): a fourth
	// connection gets a 503 and is closed.
	var busy []net.Conn
	for range 3 {
		c := dial()
		fmt.Fprintf(c, "POST /v1/predict HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n{\"text\":")
		busy = append(busy, c)
	}
	waitFor(t, "3 requests in flight", func() bool { return ts.met.inFlight.Load() == 3 })
	b, _ := io.ReadAll(dial())
	if !strings.HasPrefix(string(b), "HTTP/1.1 503 ") || !strings.Contains(string(b), `{"error":"too many open connections"}`) {
		t.Errorf("connection over the limit: %q", b)
	}
	for _, c := range busy {
		io.WriteString(c, `"car"}`+"\n")
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != 200 {
			t.Errorf("busy connection: %v %v", resp, err)
		}
		c.Close()
	}
	waitFor(t, "the connections to close", func() bool { return ts.met.conns.Load() == 0 })

	req, _ := http.NewRequest("GET", ts.url+"/healthz", nil)
	req.Header.Set("X-Big", strings.Repeat("b", 8192))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("oversized headers: %d, want 431", resp.StatusCode)
	}
	if code, _ := ts.get(t, "/healthz"); code != 200 {
		t.Errorf("healthz: %d", code)
	}
}

// TestShutdown checks that cancelling Serve's context lets a request in
// flight finish and then stops the server.
func TestShutdown(t *testing.T) {
	cfg := testConfig(ModelSpec{"m", copyModel(t, "multinomial-scaled-v2.nbm", t.TempDir(), "m.nbm")})
	ts := start(t, cfg)
	c, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/predict HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\n\r\n{\"text\":")
	waitFor(t, "the request in flight", func() bool { return ts.met.inFlight.Load() == 1 })
	ts.cancel()
	time.Sleep(50 * time.Millisecond)
	select {
	case err := <-ts.done:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	default:
	}
	io.WriteString(c, `"car"}`)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("request in flight at shutdown: %v %v", resp, err)
	}
	select {
	case err := <-ts.done:
		if err != nil {
			t.Fatal(err)
		}
		ts.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the last request")
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(ts.url, "http://"), time.Second); err == nil {
		t.Error("still accepting after shutdown")
	}
}

func mustJSON(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
