package serve

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Config is what a Server serves and its limits. DefaultConfig gives the
// defaults; Validate names the field out of range by its flag.
type Config struct {
	Addr   string      // host:port to listen on (Run); default 127.0.0.1:8080
	Models []ModelSpec // the first is the default model

	MaxBodyBytes      int64         // request body (413 over it)
	MaxBatch          int           // documents in one request (413 over it)
	MaxDocBytes       int           // bytes of one document (413 over it)
	MaxConcurrent     int           // requests answered at once (0: 4 per core)
	QueueWait         time.Duration // how long a request waits for a slot before a 503
	MaxConns          int           // open connections (over it: 503 and close)
	MaxHeaderBytes    int           // request line and headers
	ReadHeaderTimeout time.Duration // to read the headers of a request
	ReadTimeout       time.Duration // to read a whole request
	WriteTimeout      time.Duration // from the end of the headers to the end of the answer
	IdleTimeout       time.Duration // between keep-alive requests
	ShutdownTimeout   time.Duration // for requests in flight at shutdown
	Watch             time.Duration // poll interval of the model files (0: no watching)
	// LabelThreshold is the probability a label of a multi-label model
	// needs when a request gives no threshold and the model has no tuned
	// thresholds (predict's default).
	LabelThreshold float64
	// Workers splits a batch of at least 2·MinSplit documents over this
	// many goroutines (0: GOMAXPROCS).
	Workers int
}

// MinSplit is the fewest documents a goroutine answers when a batch is
// split: below it the hand-off costs more than it saves.
const MinSplit = 16

// ModelSpec names a model file.
type ModelSpec struct {
	Name string // as requests choose it ("model")
	Path string
}

// DefaultConfig returns the default limits, listening on localhost only.
func DefaultConfig() Config {
	return Config{
		Addr:              "127.0.0.1:8080",
		MaxBodyBytes:      4 << 20,
		MaxBatch:          1000,
		MaxDocBytes:       1 << 20,
		QueueWait:         time.Second,
		MaxConns:          1024,
		MaxHeaderBytes:    16 << 10,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       60 * time.Second,
		ShutdownTimeout:   10 * time.Second,
		Watch:             time.Second,
		LabelThreshold:    0.5,
	}
}

// Validate reports the first setting out of range, naming its flag.
func (c *Config) Validate() error {
	if len(c.Models) == 0 {
		return fmt.Errorf("-m MODEL is required")
	}
	seen := map[string]bool{}
	for _, m := range c.Models {
		if seen[m.Name] {
			return fmt.Errorf("-m: two models are named %q: name them with -m NAME=MODEL", m.Name)
		}
		seen[m.Name] = true
	}
	pos := []struct {
		flag string
		v    int64
	}{
		{"--max-body-bytes", c.MaxBodyBytes},
		{"--max-batch", int64(c.MaxBatch)},
		{"--max-doc-bytes", int64(c.MaxDocBytes)},
		{"--max-conns", int64(c.MaxConns)},
		{"--max-header-bytes", int64(c.MaxHeaderBytes)},
		{"--read-header-timeout", int64(c.ReadHeaderTimeout)},
		{"--read-timeout", int64(c.ReadTimeout)},
		{"--write-timeout", int64(c.WriteTimeout)},
		{"--idle-timeout", int64(c.IdleTimeout)},
	}
	for _, p := range pos {
		if p.v <= 0 {
			return fmt.Errorf("%s must be > 0, got %d", p.flag, p.v)
		}
	}
	if c.MaxConcurrent < 0 {
		return fmt.Errorf("--max-concurrent must be ≥ 0 (0: 4 per core), got %d", c.MaxConcurrent)
	}
	if c.QueueWait < 0 {
		return fmt.Errorf("--queue-wait must be ≥ 0, got %s", c.QueueWait)
	}
	if c.ShutdownTimeout < 0 {
		return fmt.Errorf("--shutdown-timeout must be ≥ 0, got %s", c.ShutdownTimeout)
	}
	if c.Watch < 0 {
		return fmt.Errorf("--watch must be ≥ 0 (0: no watching), got %s", c.Watch)
	}
	if c.Workers < 0 {
		return fmt.Errorf("--batch-workers must be ≥ 0, got %d", c.Workers)
	}
	if c.LabelThreshold < 0 || c.LabelThreshold > 1 {
		return fmt.Errorf("label threshold must be between 0 and 1, got %g", c.LabelThreshold)
	}
	return nil
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// ValidateSpecs sets Models from -m's values (ParseModelSpec), then
// validates c: the first value that is no spec, or the first setting out
// of range (Validate).
func (c *Config) ValidateSpecs(specs []string) error {
	if len(specs) == 0 {
		return fmt.Errorf("-m MODEL is required")
	}
	for _, s := range specs {
		spec, err := ParseModelSpec(s)
		if err != nil {
			return err
		}
		c.Models = append(c.Models, spec)
	}
	return c.Validate()
}

// ParseModelSpec reads -m's value: NAME=PATH, or PATH, named by its file
// name without the extension (news.nbm: news). A value whose part before
// the first "=" is not a valid name (letters, digits, "_", "." and "-") is
// a path.
func ParseModelSpec(s string) (ModelSpec, error) {
	if s == "" {
		return ModelSpec{}, fmt.Errorf("-m: empty model path")
	}
	if name, path, ok := strings.Cut(s, "="); ok && nameRE.MatchString(name) {
		if path == "" {
			return ModelSpec{}, fmt.Errorf("-m %s: empty model path", s)
		}
		return ModelSpec{Name: name, Path: path}, nil
	}
	base := filepath.Base(s)
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if !nameRE.MatchString(name) {
		return ModelSpec{}, fmt.Errorf("-m %s: cannot name the model after its file: give -m NAME=%s", s, s)
	}
	return ModelSpec{Name: name, Path: s}, nil
}
