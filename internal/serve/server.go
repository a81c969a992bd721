package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Server answers the HTTP API over its models. Create it with New; it is
// safe for concurrent use.
type Server struct {
	cfg    Config
	slots  []*slot
	byName map[string]*slot
	sem    chan struct{} // one token per request being answered
	met    metrics
	log    *log.Logger
	idle   idleConns
}

// New loads every model of cfg (an error names the file, and wraps
// model.ErrModelFile for a file that is not a valid model) and returns a
// Server that logs to logw.
func New(cfg Config, logw io.Writer) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.MaxConcurrent == 0 {
		cfg.MaxConcurrent = 4 * runtime.GOMAXPROCS(0)
	}
	if logw == nil {
		logw = io.Discard
	}
	s := &Server{
		cfg:    cfg,
		byName: map[string]*slot{},
		sem:    make(chan struct{}, cfg.MaxConcurrent),
		log:    log.New(logw, "nbtext serve: ", log.LstdFlags),
	}
	if err := s.open(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) logf(format string, args ...any) { s.log.Printf(format, args...) }

// Serve answers the connections of ln until ctx ends, watching the model
// files meanwhile (Config.Watch), then shuts down gracefully: it stops
// accepting, waits for the requests in flight (at most
// Config.ShutdownTimeout) and returns nil, or the error that stopped it.
// ln is closed on return.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    s.cfg.MaxHeaderBytes,
		ErrorLog:          log.New(&quietLog{l: s.log}, "", 0),
	}
	ll := &limitListener{Listener: ln, max: int64(s.cfg.MaxConns), met: &s.met, idle: &s.idle}
	hs.ConnState = s.idle.track
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ll) }()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.watch(done) }()
	defer func() { close(done); wg.Wait() }()

	names := make([]string, len(s.slots))
	for i, sl := range s.slots {
		names[i] = sl.name + "=" + sl.path
	}
	s.logf("listening on http://%s (models: %s)", ln.Addr(), strings.Join(names, ", "))
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.logf("shutting down: finishing the requests in flight (at most %s)", s.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
		return fmt.Errorf("shutdown: requests still running after %s were cut: %w", s.cfg.ShutdownTimeout, err)
	}
	s.logf("stopped")
	return nil
}

// Run serves cfg on cfg.Addr until SIGTERM or SIGINT (a second one kills
// at once), reloading every model on SIGHUP. The server writes no file,
// so it takes these signals over from any handler installed before it
// (the cleanup of temporary files, which would end the process).
func Run(ctx context.Context, cfg Config, logw io.Writer) error {
	signal.Reset(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	s, err := New(cfg, logw)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	go func() {
		for {
			select {
			case <-hup:
				s.logf("SIGHUP: reloading every model")
				s.Reload()
			case <-ctx.Done():
				stop() // a second signal ends the process
				return
			}
		}
	}()
	return s.Serve(ctx, ln)
}

// limitListener accepts at most max connections at once. Over that it
// closes the connection that has waited longest without a request in
// progress (one that never sent a complete request, or an idle
// keep-alive) to make room, so a flood of idle or slow connections cannot
// lock clients out; when every connection has a request in progress it
// answers the new one with a 503 and closes it. Either way a flood costs a
// bounded number of goroutines and buffers.
type limitListener struct {
	net.Listener
	max  int64
	met  *metrics
	idle *idleConns
}

// overloadedConn is the answer to a connection over the limit.
const overloadedConn = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 37\r\n\r\n{\"error\":\"too many open connections\"}"

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.met.conns.Add(1) <= l.max || l.idle.evict(l.met) {
			return &countedConn{Conn: c, met: l.met}, nil
		}
		l.met.conns.Add(-1)
		l.met.connRefused.Add(1)
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		io.WriteString(c, overloadedConn)
		c.Close()
	}
}

// idleConns are the open connections without a request in progress (new
// or idle, as http.Server.ConnState reports them) and since when.
type idleConns struct {
	mu    sync.Mutex
	since map[net.Conn]time.Time
}

// track is the http.Server's ConnState hook.
func (ic *idleConns) track(c net.Conn, st http.ConnState) {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	switch st {
	case http.StateNew, http.StateIdle:
		if ic.since == nil {
			ic.since = map[net.Conn]time.Time{}
		}
		ic.since[c] = time.Now()
	default:
		delete(ic.since, c)
	}
}

// evict closes the connection idle the longest, if any, and reports
// whether it did; its place then goes to the connection being accepted
// (counted already), so the count is not changed here but by its Close.
func (ic *idleConns) evict(met *metrics) bool {
	ic.mu.Lock()
	var oldest net.Conn
	var t time.Time
	for c, s := range ic.since {
		if oldest == nil || s.Before(t) {
			oldest, t = c, s
		}
	}
	if oldest != nil {
		delete(ic.since, oldest)
	}
	ic.mu.Unlock()
	if oldest == nil {
		return false
	}
	met.connEvicted.Add(1)
	oldest.Close() // gives its place back (countedConn)
	return true
}

// countedConn gives its place back to the limit when closed.
type countedConn struct {
	net.Conn
	met  *metrics
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.met.conns.Add(-1) })
	return c.Conn.Close()
}

// quietLog passes on net/http's error log except its per-connection
// noise (timeouts and resets of hostile or gone clients), which a flood
// would turn into a flood of lines.
type quietLog struct{ l *log.Logger }

func (q *quietLog) Write(p []byte) (int, error) {
	msg := string(p)
	for _, noise := range []string{"i/o timeout", "connection reset", "broken pipe", "TLS handshake"} {
		if strings.Contains(msg, noise) {
			return len(p), nil
		}
	}
	q.l.Print("http: " + strings.TrimSuffix(msg, "\n"))
	return len(p), nil
}

// errOverloaded is the answer when no slot frees within Config.QueueWait.
var errOverloaded = errors.New("overloaded: too many requests at once, retry later")
