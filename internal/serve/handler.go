package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// httpError is an error with the status that answers it.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func errorf(code int, format string, args ...any) *httpError {
	return &httpError{code, fmt.Sprintf(format, args...)}
}

// statusWriter remembers the status written, for metrics and for the
// recovery of a panic.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// ServeHTTP routes a request, recovering from a panic in its handler
// (answered with a 500 when nothing was written yet) and counting it.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &statusWriter{ResponseWriter: rw}
	h := hOther
	switch r.URL.Path {
	case "/v1/predict":
		h = hPredict
	case "/v1/models":
		h = hModels
	case "/healthz":
		h = hHealth
	case "/metrics":
		h = hMetrics
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.met.panics.Add(1)
			s.logf("panic answering %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			if w.code == 0 {
				writeError(w, errorf(http.StatusInternalServerError, "internal error (logged)"))
			}
		}
		s.met.observe(h, w.code, time.Since(start))
	}()
	var err error
	switch h {
	case hPredict:
		if err = allow(w, r, http.MethodPost); err == nil {
			err = s.predict(w, r)
		}
	case hModels:
		if err = allow(w, r, http.MethodGet, http.MethodHead); err == nil {
			err = s.models(w)
		}
	case hHealth:
		if err = allow(w, r, http.MethodGet, http.MethodHead); err == nil {
			w.Header().Set("Content-Type", "application/json")
			_, err = w.Write([]byte(`{"status":"ok"}` + "\n"))
		}
	case hMetrics:
		if err = allow(w, r, http.MethodGet, http.MethodHead); err == nil {
			w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
			err = s.writeMetrics(w)
		}
	default:
		err = errorf(http.StatusNotFound, "no such endpoint: %s (POST /v1/predict, GET /v1/models, /healthz, /metrics)", r.URL.Path)
	}
	var he *httpError
	if errors.As(err, &he) && w.code == 0 {
		writeError(w, he)
	}
}

// allow answers a 405 for a method not among methods.
func allow(w http.ResponseWriter, r *http.Request, methods ...string) error {
	for _, m := range methods {
		if r.Method == m {
			return nil
		}
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	return errorf(http.StatusMethodNotAllowed, "method %s not allowed on %s: use %s", r.Method, r.URL.Path, strings.Join(methods, " or "))
}

// writeError answers e as {"error": "..."}.
func writeError(w http.ResponseWriter, e *httpError) {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{e.msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	if e.code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(e.code)
	w.Write(append(b, '\n'))
}

// models answers GET /v1/models.
func (s *Server) models(w http.ResponseWriter) error {
	type entry struct {
		Name        string          `json:"name"`
		Path        string          `json:"path"`
		Default     bool            `json:"default"`
		Version     int64           `json:"version"`
		LoadedAt    time.Time       `json:"loaded_at"`
		ReloadError string          `json:"reload_error,omitempty"`
		Info        json.RawMessage `json:"info"`
	}
	out := struct {
		Models []entry `json:"models"`
	}{}
	for i, sl := range s.slots {
		ld := sl.cur.Load()
		sl.mu.Lock()
		msg := sl.lastErr
		sl.mu.Unlock()
		out.Models = append(out.Models, entry{sl.name, sl.path, i == 0, ld.version, ld.at.UTC(), msg, ld.info})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(append(b, '\n'))
	return err
}

// bufPool recycles request bodies and answers.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 1 << 20

func putBuf(b *bytes.Buffer) {
	if b.Cap() <= maxPooled {
		b.Reset()
		bufPool.Put(b)
	}
}

// acquire takes a slot to answer a request, waiting at most
// Config.QueueWait.
func (s *Server) acquire(r *http.Request) error {
	select {
	case s.sem <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case s.sem <- struct{}{}:
		return nil
	case <-t.C:
		s.met.overload.Add(1)
		return errorf(http.StatusServiceUnavailable, "%v", errOverloaded)
	case <-r.Context().Done():
		return errorf(http.StatusServiceUnavailable, "request cancelled while waiting")
	}
}

// readBody reads the request body into b, at most Config.MaxBodyBytes.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, b *bytes.Buffer) error {
	if r.ContentLength > s.cfg.MaxBodyBytes {
		return errorf(http.StatusRequestEntityTooLarge, "request body of %d bytes is larger than the limit of %d (--max-body-bytes)", r.ContentLength, s.cfg.MaxBodyBytes)
	}
	if r.ContentLength > 0 {
		b.Grow(int(r.ContentLength) + 1)
	}
	_, err := b.ReadFrom(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return errorf(http.StatusRequestEntityTooLarge, "request body larger than the limit of %d bytes (--max-body-bytes)", s.cfg.MaxBodyBytes)
	case err != nil:
		return errorf(http.StatusBadRequest, "reading the request body: %v", err)
	}
	if !utf8.Valid(b.Bytes()) {
		return errorf(http.StatusBadRequest, "request body is not valid UTF-8")
	}
	return nil
}
