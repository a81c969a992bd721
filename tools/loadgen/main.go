// Command loadgen sends load to 'nbtext serve' for scripts/bench-serve.sh:
// a development tool, not an nbtext command. It only talks to a loopback
// address.
//
// -mode rate (default) sends POST bodies (one JSON request per line of
// -bodies, in turn) at a fixed rate over -conns keep-alive connections for
// -duration, open loop: the latency of a request is measured from the
// time it was due, so a stalled server is not hidden by a client that
// waits (coordinated omission). It prints the requests sent, their status
// codes, errors and latency percentiles.
//
//	go run ./tools/loadgen -url http://127.0.0.1:8080/v1/predict -bodies posts.jsonl -rate 2000 -duration 20s
//
// -mode hostile opens -idle connections that send nothing and -slow that
// send a header byte per second (slowloris), sends oversized, malformed
// and non-UTF-8 bodies, and checks meanwhile that well-formed requests are
// answered; it prints what each kind of client got.
//
// -mode bodies writes the request bodies of the benchmark from the test
// split of a 20 Newsgroups archive into -out: posts.jsonl ({"text": post}
// per line: one post per request, and predict --input jsonl's input) and
// batch100.jsonl ({"texts": [100 posts]} per line).
//
// -mode answers sends each body of -bodies (batches) in turn and writes
// the predictions of the answers to stdout, one per line as predict
// writes them, for a byte comparison with predict's output.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"

	"flag"
	"fmt"
	"github.com/nbtext/nbtext/internal/corpus"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	var (
		target   = flag.String("url", "http://127.0.0.1:8080/v1/predict", "predict URL (loopback only)")
		bodies   = flag.String("bodies", "", "file of request bodies, one JSON object per line (rate mode)")
		mode     = flag.String("mode", "rate", "rate or hostile")
		rate     = flag.Float64("rate", 1000, "requests per second")
		duration = flag.Duration("duration", 10*time.Second, "length of the run (at most 2m)")
		conns    = flag.Int("conns", 32, "keep-alive connections (rate mode)")
		idle     = flag.Int("idle", 2000, "idle connections (hostile mode)")
		slow     = flag.Int("slow", 100, "slowloris connections (hostile mode)")
		tarball  = flag.String("tarball", "", "20 Newsgroups archive (bodies mode)")
		out      = flag.String("out", ".", "folder for the bodies (bodies mode)")
	)
	flag.Parse()
	if *mode == "answers" {
		writeAnswers(*target, readBodies(*bodies))
		return
	}
	if *mode == "bodies" {
		writeBodies(*tarball, *out)
		return
	}
	u, err := url.Parse(*target)
	if err != nil || !loopback(u.Hostname()) {
		fail("-url must name a loopback address, got %q", *target)
	}
	if *duration > 2*time.Minute {
		fail("-duration must be at most 2m")
	}
	switch *mode {
	case "rate":
		if *bodies == "" {
			fail("-bodies is required")
		}
		runRate(*target, readBodies(*bodies), *rate, *duration, *conns)
	case "hostile":
		runHostile(u, *idle, *slow, *duration)
	default:
		fail("-mode must be rate, hostile, bodies or answers")
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "loadgen: "+format+"\n", a...)
	os.Exit(2)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func readBodies(path string) [][]byte {
	f, err := os.Open(path)
	if err != nil {
		fail("%v", err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			out = append(out, slices.Clone(sc.Bytes()))
		}
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		fail("%s: no bodies (%v)", path, err)
	}
	return out
}

func client(conns int) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
			IdleConnTimeout: time.Minute, DisableCompression: true,
		},
	}
}

// runRate sends bodies at rate for d over conns connections.
func runRate(target string, bodies [][]byte, rate float64, d time.Duration, conns int) {
	c := client(conns)
	type job struct {
		due  time.Time
		body []byte
	}
	jobs := make(chan job, 1<<16)
	var (
		mu       sync.Mutex
		lat      []time.Duration
		codes    = map[int]int{}
		errs     = map[string]int{}
		versions = map[string]int{}
		wg       sync.WaitGroup
	)
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			for j := range jobs {
				resp, err := c.Post(target, "application/json", bytes.NewReader(j.body))
				code, v := 0, ""
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code, v = resp.StatusCode, resp.Header.Get("Nbtext-Model-Version")
				}
				l := time.Since(j.due)
				local = append(local, l)
				mu.Lock()
				if err != nil {
					msg := err.Error()
					if i := strings.LastIndex(msg, ": "); i >= 0 {
						msg = msg[i+2:]
					}
					errs[msg]++
				} else {
					codes[code]++
					versions[v]++
				}
				mu.Unlock()
			}
			mu.Lock()
			lat = append(lat, local...)
			mu.Unlock()
		}()
	}
	start := time.Now()
	interval := time.Duration(float64(time.Second) / rate)
	n := 0
	for {
		due := start.Add(time.Duration(n) * interval)
		if due.Sub(start) >= d {
			break
		}
		if w := time.Until(due); w > 0 {
			time.Sleep(w)
		}
		jobs <- job{due, bodies[n%len(bodies)]}
		n++
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	fmt.Printf("requests %d in %.1fs (%.0f/s, target %.0f/s), connections %d\n", n, elapsed.Seconds(), float64(n)/elapsed.Seconds(), rate, conns)
	fmt.Printf("status %v  errors %v  model versions seen %d\n", codes, errs, len(versions))
	fmt.Printf("latency p50 %s  p90 %s  p99 %s  p99.9 %s  max %s\n", pct(0.5), pct(0.9), pct(0.99), pct(0.999), lat[len(lat)-1])
	failed := n - codes[200]
	fmt.Printf("failed %d\n", failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// runHostile plays hostile clients while checking that good ones are
// still answered.
func runHostile(u *url.URL, idle, slow int, d time.Duration) {
	addr := u.Host
	predictURL := u.String()
	base := u.Scheme + "://" + u.Host
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()

	// Idle and slowloris connections, opened as fast as they connect.
	var opened, dialErr atomic.Int64
	var held []net.Conn
	var hmu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 256)
	for i := range idle + slow {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				dialErr.Add(1)
				return
			}
			opened.Add(1)
			hmu.Lock()
			held = append(held, c)
			hmu.Unlock()
			if i >= idle {
				go slowloris(ctx, c)
			}
		}()
	}
	wg.Wait()
	fmt.Printf("connections: %d opened (%d idle, %d slowloris), %d dial errors\n", opened.Load(), idle, slow, dialErr.Load())
	// What the held connections got: a 503 over the limit, or a close
	// after the header timeout.
	var got503, closed atomic.Int64
	for _, c := range held {
		go func() {
			c.SetReadDeadline(time.Now().Add(d))
			b := make([]byte, 256)
			n, _ := io.ReadAtLeast(c, b, 12)
			if n >= 12 && bytes.HasPrefix(b[:n], []byte("HTTP/1.1 503")) {
				got503.Add(1)
			} else {
				closed.Add(1)
			}
		}()
	}

	c := client(8)
	kinds := []struct {
		name, body string
		want       int
	}{
		{"oversized body", `{"text":"` + strings.Repeat("x", 8<<20) + `"}`, 413},
		{"malformed JSON", `{"text": "abc`, 400},
		{"invalid UTF-8", "{\"text\": \"caf\xe9\"}", 400},
		{"unknown field", `{"txt": "a"}`, 400},
		{"good", `{"text": "the space shuttle launch"}`, 200},
	}
	results := map[string]map[int]int{}
	for _, k := range kinds {
		results[k.name] = map[int]int{}
	}
	for round := 0; ctx.Err() == nil && round < 50; round++ {
		for _, k := range kinds {
			resp, err := c.Post(predictURL, "application/json", strings.NewReader(k.body))
			code := -1
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				code = resp.StatusCode
			}
			results[k.name][code]++
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, k := range kinds {
		fmt.Printf("%-15s want %d, got %v\n", k.name, k.want, results[k.name])
	}
	<-ctx.Done()
	hmu.Lock()
	for _, c := range held {
		c.Close()
	}
	hmu.Unlock()
	fmt.Printf("held connections: %d answered 503 (over --max-conns, all busy), %d closed by the server (evicted for a newer one, or header timeout) or open at the end\n", got503.Load(), closed.Load())
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		fmt.Printf("healthz after: %v\n", err)
		os.Exit(1)
	}
	resp.Body.Close()
	fmt.Printf("healthz after: %d\n", resp.StatusCode)
	if resp.StatusCode != 200 {
		os.Exit(1)
	}
}

// slowloris sends a request's header one byte a second.
func slowloris(ctx context.Context, c net.Conn) {
	msg := "POST /v1/predict HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("a", 200)
	for i := 0; i < len(msg) && ctx.Err() == nil; i++ {
		if _, err := c.Write([]byte{msg[i]}); err != nil {
			return // closed by the server's header timeout
		}
		time.Sleep(time.Second)
	}
}

// writeBodies writes posts.jsonl and batch100.jsonl from the test split
// of tarball.
func writeBodies(tarball, out string) {
	var posts []string
	err := corpus.Stream(tarball, corpus.Options{Split: "test"}, func(d corpus.Document) error {
		posts = append(posts, d.Text)
		return nil
	})
	if err != nil || len(posts) == 0 {
		fail("%s: %v (%d posts)", tarball, err, len(posts))
	}
	var one, batch bytes.Buffer
	for i, p := range posts {
		b, _ := json.Marshal(map[string]string{"text": p})
		one.Write(append(b, '\n'))
		if i%100 == 0 && i+100 <= len(posts) {
			b, _ := json.Marshal(map[string][]string{"texts": posts[i : i+100]})
			batch.Write(append(b, '\n'))
		}
	}
	for name, b := range map[string][]byte{"posts.jsonl": one.Bytes(), "batch100.jsonl": batch.Bytes()} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			fail("%v", err)
		}
	}
	fmt.Printf("%d posts, %d batches of 100 in %s\n", len(posts), len(posts)/100, out)
}

// writeAnswers writes the predictions of each batch answer to stdout.
func writeAnswers(target string, bodies [][]byte) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i, b := range bodies {
		resp, err := http.Post(target, "application/json", bytes.NewReader(b))
		if err != nil {
			fail("body %d: %v", i+1, err)
		}
		var ans struct {
			Predictions []json.RawMessage `json:"predictions"`
		}
		err = json.NewDecoder(resp.Body).Decode(&ans)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			fail("body %d: status %d, %v", i+1, resp.StatusCode, err)
		}
		for _, p := range ans.Predictions {
			w.Write(p)
			w.WriteByte('\n')
		}
	}
}
