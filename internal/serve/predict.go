package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/predict"
)

// request is the body of POST /v1/predict: one of Text, Texts, Record and
// Records, and the options.
type request struct {
	Model     string            `json:"model"`
	Text      *string           `json:"text"`
	Texts     []string          `json:"texts"`
	Record    json.RawMessage   `json:"record"`
	Records   []json.RawMessage `json:"records"`
	TopK      int               `json:"top_k"`
	Threshold *float64          `json:"threshold"`
	Explain   int               `json:"explain"`
	Costs     string            `json:"costs"`
}

// maxExplain bounds "explain".
const maxExplain = 1000

// decode reads the request body b and checks its options.
func decode(b []byte) (request, error) {
	req, err := parseRequest(b)
	if err != nil {
		return req, err
	}
	n := 0
	for _, given := range []bool{req.Text != nil, req.Texts != nil, req.Record != nil, req.Records != nil} {
		if given {
			n++
		}
	}
	if n != 1 {
		return req, errorf(http.StatusBadRequest, `give exactly one of "text", "texts", "record" and "records"`)
	}
	if req.TopK < 0 {
		return req, errorf(http.StatusBadRequest, `"top_k" must be ≥ 0, got %d`, req.TopK)
	}
	if req.Explain < 0 || req.Explain > maxExplain {
		return req, errorf(http.StatusBadRequest, `"explain" must be between 0 and %d, got %d`, maxExplain, req.Explain)
	}
	if t := req.Threshold; t != nil && (*t < 0 || *t > 1) {
		return req, errorf(http.StatusBadRequest, `"threshold" must be between 0 and 1, got %g`, *t)
	}
	return req, nil
}

// isDefault reports whether req asks for the default options.
func (req *request) isDefault() bool {
	return req.TopK == 0 && req.Threshold == nil && req.Explain == 0 && req.Costs == ""
}

// options are predict's options for req on m, as 'predict --format json
// --input jsonl' sets them from its flags.
func (s *Server) options(m *model.Model, req request) (predict.Options, error) {
	opt := predict.Options{Input: predict.InputJSONL, Format: predict.FormatJSON, TopK: req.TopK, Explain: req.Explain,
		MaxDocBytes: s.cfg.MaxDocBytes, Workers: 1}
	if req.Threshold != nil {
		opt.Threshold = *req.Threshold
	}
	if m.MultiLabel {
		if req.Threshold == nil {
			opt.Threshold = s.cfg.LabelThreshold
		}
		opt.LabelThresholds = m.Thresholds(opt.Threshold, req.Threshold != nil)
	}
	var err error
	if opt.Costs, err = model.ParseCosts(req.Costs, m.Classes); err != nil {
		return opt, errorf(http.StatusBadRequest, `"costs": %v`, err)
	}
	return opt, nil
}

// predict answers POST /v1/predict.
func (s *Server) predict(w http.ResponseWriter, r *http.Request) error {
	if err := s.acquire(r); err != nil {
		return err
	}
	s.met.inFlight.Add(1)
	defer func() {
		s.met.inFlight.Add(-1)
		<-s.sem
	}()
	body := bufPool.Get().(*bytes.Buffer)
	defer putBuf(body)
	if err := s.readBody(w, r, body); err != nil {
		return err
	}
	req, err := decode(body.Bytes())
	if err != nil {
		return err
	}
	sl := s.slots[0]
	if req.Model != "" {
		if sl = s.byName[req.Model]; sl == nil {
			names := make([]string, len(s.slots))
			for i, o := range s.slots {
				names[i] = o.name
			}
			sort.Strings(names)
			return errorf(http.StatusBadRequest, "unknown model %q (loaded: %s)", req.Model, strings.Join(names, ", "))
		}
	}
	ld := sl.cur.Load() // this request's model, whatever a reload does meanwhile
	p := ld.base
	if !req.isDefault() {
		opt, err := s.options(ld.m, req)
		if err != nil {
			return err
		}
		if p, err = predict.New(ld.m, opt); err != nil {
			return errorf(http.StatusBadRequest, "%v", err)
		}
	}
	docs := docsOf(&req)
	if docs.n > s.cfg.MaxBatch {
		return errorf(http.StatusRequestEntityTooLarge, "%d documents in one request, more than the limit of %d (--max-batch)", docs.n, s.cfg.MaxBatch)
	}
	for i := range docs.n {
		if size := docs.size(i); size > s.cfg.MaxDocBytes {
			return errorf(http.StatusRequestEntityTooLarge, "%s: document of %d bytes is larger than the limit of %d (--max-doc-bytes)", docs.name(i), size, s.cfg.MaxDocBytes)
		}
	}

	bp := outPool.Get().(*[]byte)
	ans := (*bp)[:0]
	defer func() {
		if cap(ans) <= maxPooled {
			*bp = ans[:0]
			outPool.Put(bp)
		}
	}()
	if docs.single {
		ans, err = s.answer(ld, p, &docs, 0, 1, ans)
	} else {
		ans = append(ans, `{"model":`...)
		ans = strconv.AppendQuote(ans, sl.name) // names are plain ASCII (ParseModelSpec)
		ans = append(ans, `,"version":`...)
		ans = strconv.AppendInt(ans, ld.version, 10)
		ans = append(ans, `,"predictions":[`...)
		ans, err = s.answerAll(ld, p, &docs, ans)
		ans = append(ans, "]}\n"...)
	}
	if err != nil {
		return err
	}
	sl.docs.Add(int64(docs.n))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(ans)))
	h.Set("Nbtext-Model", sl.name)
	h.Set("Nbtext-Model-Version", strconv.FormatInt(ld.version, 10))
	_, err = w.Write(ans)
	return err
}

// outPool recycles answers.
var outPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// docs are the documents of a request.
type docs struct {
	single  bool // {"text"} or {"record"}: answered without the envelope
	n       int
	texts   []string
	records []json.RawMessage
}

func docsOf(req *request) docs {
	switch {
	case req.Text != nil:
		return docs{single: true, n: 1, texts: []string{*req.Text}}
	case req.Texts != nil:
		return docs{n: len(req.Texts), texts: req.Texts}
	case req.Record != nil:
		return docs{single: true, n: 1, records: []json.RawMessage{req.Record}}
	}
	return docs{n: len(req.Records), records: req.Records}
}

func (d *docs) size(i int) int {
	if d.records != nil {
		return len(d.records[i])
	}
	return len(d.texts[i])
}

// name names document i in errors.
func (d *docs) name(i int) string {
	switch {
	case d.single && d.records != nil:
		return "record"
	case d.single:
		return "text"
	case d.records != nil:
		return "records[" + strconv.Itoa(i) + "]"
	}
	return "texts[" + strconv.Itoa(i) + "]"
}

// answer appends the answers of documents lo..hi-1, separated by commas
// and without predict's newlines in a batch, to dst.
func (s *Server) answer(ld *loaded, p *predict.Predictor, d *docs, lo, hi int, dst []byte) ([]byte, error) {
	a := ld.pool.Get().(*predict.Answerer)
	defer ld.pool.Put(a)
	for i := lo; i < hi; i++ {
		if !d.single && i > 0 {
			dst = append(dst, ',')
		}
		if d.records != nil {
			var err error
			name := "records"
			if d.single {
				name = "record"
			}
			if dst, _, err = p.AppendJSON(a, dst, name, i+1, d.records[i]); err != nil {
				return dst, errorf(http.StatusBadRequest, "%v", err)
			}
		} else {
			dst, _ = p.AppendText(a, dst, i+1, d.texts[i])
		}
		if !d.single {
			dst = dst[:len(dst)-1] // predict's newline
		}
	}
	return dst, nil
}

// answerAll answers every document of a batch onto dst, splitting a
// large batch over Config.Workers goroutines.
func (s *Server) answerAll(ld *loaded, p *predict.Predictor, d *docs, dst []byte) ([]byte, error) {
	workers := s.cfg.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, d.n/MinSplit)
	if workers < 2 {
		return s.answer(ld, p, d, 0, d.n, dst)
	}
	parts := make([][]byte, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for k := 1; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					errs[k] = errorf(http.StatusInternalServerError, "internal error: %v", v)
				}
			}()
			parts[k], errs[k] = s.answer(ld, p, d, k*d.n/workers, (k+1)*d.n/workers, nil)
		}()
	}
	dst, errs[0] = s.answer(ld, p, d, 0, d.n/workers, dst)
	wg.Wait()
	for k := range workers {
		if errs[k] != nil {
			return dst, errs[k]
		}
		dst = append(dst, parts[k]...)
	}
	return dst, nil
}
