package serve

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/predict"
)

// infoTop is how many terms per class /v1/models shows, as 'nbtext info'.
const infoTop = 10

// slot is one named model: the version being served, swapped atomically
// by a reload.
type slot struct {
	name, path string
	cur        atomic.Pointer[loaded]
	docs       atomic.Int64 // documents answered, every version
	reloadsOK  atomic.Int64
	reloadsBad atomic.Int64

	mu      sync.Mutex  // serialises reloads
	seen    os.FileInfo // the file last tried (nil: missing)
	lastErr string      // why the last reload failed ("" when it did not)
}

// loaded is one version of a model, never changed once published.
type loaded struct {
	m       *model.Model
	version int64
	info    json.RawMessage // model.Info as JSON
	at      time.Time
	base    *predict.Predictor // with the default options
	pool    sync.Pool          // *predict.Answerer for m
}

// load reads and checks the model at sl.path and prepares it to serve as
// version.
func (s *Server) load(sl *slot, version int64) (*loaded, error) {
	m, info, err := model.LoadInfo(sl.path, infoTop)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(info)
	if err != nil {
		return nil, fmt.Errorf("%s: describe: %w", sl.path, err)
	}
	opt, err := s.options(m, request{})
	if err != nil {
		return nil, err
	}
	base, err := predict.New(m, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sl.path, err)
	}
	ld := &loaded{m: m, version: version, info: raw, at: time.Now(), base: base}
	ld.pool.New = func() any { return base.NewAnswerer() }
	return ld, nil
}

// open loads every model of the configuration, failing on the first that
// does not load.
func (s *Server) open() error {
	for _, spec := range s.cfg.Models {
		sl := &slot{name: spec.Name, path: spec.Path}
		sl.seen, _ = os.Stat(spec.Path)
		ld, err := s.load(sl, 1)
		if err != nil {
			return err
		}
		sl.cur.Store(ld)
		s.slots = append(s.slots, sl)
		s.byName[sl.name] = sl
	}
	return nil
}

// Reload reloads every model from its file, as SIGHUP does, whether or not
// the file changed. A model that does not load keeps its current version
// (logged). It returns the first error.
func (s *Server) Reload() error {
	var first error
	for _, sl := range s.slots {
		if err := s.reload(sl, true); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// reload loads sl's file and swaps it in. Unless force is set it does so
// only when the file differs from the one last tried (identity, size or
// modification time), so a damaged file is not retried until it changes.
func (s *Server) reload(sl *slot, force bool) error {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	old := sl.cur.Load()
	fi, err := os.Stat(sl.path)
	if err != nil {
		if sl.seen != nil || force {
			s.logf("model %s: reload: %v; version %d keeps serving", sl.name, err, old.version)
			sl.reloadsBad.Add(1)
			sl.lastErr = err.Error()
		}
		sl.seen = nil
		return err
	}
	if !force && sameFile(sl.seen, fi) {
		return nil
	}
	sl.seen = fi
	ld, err := s.load(sl, old.version+1)
	if err != nil {
		s.logf("model %s: reload refused: %v; version %d keeps serving", sl.name, err, old.version)
		sl.reloadsBad.Add(1)
		sl.lastErr = err.Error()
		return err
	}
	sl.cur.Store(ld)
	sl.reloadsOK.Add(1)
	sl.lastErr = ""
	// A load leaves garbage about the size of the model, and the old model
	// is garbage once its last request ends: collect now rather than let
	// back-to-back reloads pile it up while the collector is starved of
	// CPU by the requests (reloads are rare; a collection costs
	// milliseconds).
	runtime.GC()
	var sum struct {
		SHA256 string `json:"sha256"`
	}
	json.Unmarshal(ld.info, &sum)
	s.logf("model %s: reloaded %s: version %d (sha256 %.12s)", sl.name, sl.path, ld.version, sum.SHA256)
	return nil
}

// sameFile reports whether a and b describe the same file in the same
// state: one written in place changes its size or time, one replaced by a
// rename is another file.
func sameFile(a, b os.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// watch reloads a model whose file changed, polling every Config.Watch
// until done is closed.
func (s *Server) watch(done <-chan struct{}) {
	if s.cfg.Watch <= 0 {
		return
	}
	t := time.NewTicker(s.cfg.Watch)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			for _, sl := range s.slots {
				s.reload(sl, false)
			}
		}
	}
}
