package serve

import (
	"bufio"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// Handlers, as metrics label them.
const (
	hPredict = iota
	hModels
	hHealth
	hMetrics
	hOther
	numHandlers
)

var handlerNames = [numHandlers]string{"predict", "models", "healthz", "metrics", "other"}

// buckets are the upper bounds of the latency histogram, in seconds.
var buckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// metrics are the server's counters, updated without locks.
type metrics struct {
	codes [numHandlers][600]atomic.Int64 // requests by handler and status code
	hist  [numHandlers]histogram
	// overload counts requests refused with a 503 after Config.QueueWait;
	// connRefused connections refused over Config.MaxConns.
	overload, connRefused, connEvicted atomic.Int64
	inFlight, conns                    atomic.Int64
	panics                             atomic.Int64
}

type histogram struct {
	counts [16]atomic.Int64 // per bucket, not cumulative; the last is +Inf
	sumNs  atomic.Int64
}

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	i := 0
	for i < len(buckets) && s > buckets[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sumNs.Add(int64(d))
}

// observe records one answered request.
func (m *metrics) observe(handler, code int, d time.Duration) {
	if code < 100 || code >= 600 {
		code = 500
	}
	m.codes[handler][code].Add(1)
	m.hist[handler].observe(d)
}

// writeMetrics writes the Prometheus text format (version 0.0.4).
func (s *Server) writeMetrics(w io.Writer) error {
	b := bufio.NewWriter(w)
	m := &s.met
	head := func(name, typ, help string) {
		b.WriteString("# HELP " + name + " " + help + "\n# TYPE " + name + " " + typ + "\n")
	}
	val := func(name, labels string, v int64) {
		b.WriteString(name)
		if labels != "" {
			b.WriteString("{" + labels + "}")
		}
		b.WriteString(" " + strconv.FormatInt(v, 10) + "\n")
	}
	head("nbtext_http_requests_total", "counter", "HTTP requests answered, by handler and status code.")
	for h := range numHandlers {
		for code := range m.codes[h] {
			if n := m.codes[h][code].Load(); n > 0 {
				val("nbtext_http_requests_total", `handler="`+handlerNames[h]+`",code="`+strconv.Itoa(code)+`"`, n)
			}
		}
	}
	head("nbtext_http_request_errors_total", "counter", "HTTP requests answered with a status of 400 or more, by handler.")
	for h := range numHandlers {
		var n int64
		for code := 400; code < 600; code++ {
			n += m.codes[h][code].Load()
		}
		val("nbtext_http_request_errors_total", `handler="`+handlerNames[h]+`"`, n)
	}
	head("nbtext_http_request_duration_seconds", "histogram", "Time from the request's headers to the end of its answer.")
	for h := range numHandlers {
		hist := &m.hist[h]
		var cum int64
		l := `handler="` + handlerNames[h] + `",le="`
		for i, ub := range buckets {
			cum += hist.counts[i].Load()
			val("nbtext_http_request_duration_seconds_bucket", l+strconv.FormatFloat(ub, 'g', -1, 64)+`"`, cum)
		}
		cum += hist.counts[len(buckets)].Load()
		val("nbtext_http_request_duration_seconds_bucket", l+`+Inf"`, cum)
		b.WriteString("nbtext_http_request_duration_seconds_sum{handler=\"" + handlerNames[h] + "\"} " +
			strconv.FormatFloat(float64(hist.sumNs.Load())/1e9, 'g', -1, 64) + "\n")
		val("nbtext_http_request_duration_seconds_count", `handler="`+handlerNames[h]+`"`, cum)
	}
	head("nbtext_http_requests_in_flight", "gauge", "Requests being answered.")
	val("nbtext_http_requests_in_flight", "", m.inFlight.Load())
	head("nbtext_http_overload_total", "counter", "Requests refused with a 503: no slot free within the queue wait.")
	val("nbtext_http_overload_total", "", m.overload.Load())
	head("nbtext_http_connections", "gauge", "Open connections.")
	val("nbtext_http_connections", "", m.conns.Load())
	head("nbtext_http_connections_refused_total", "counter", "Connections refused over the connection limit.")
	val("nbtext_http_connections_refused_total", "", m.connRefused.Load())
	head("nbtext_http_connections_evicted_total", "counter", "Idle connections closed over the connection limit to make room for a new one.")
	val("nbtext_http_connections_evicted_total", "", m.connEvicted.Load())
	head("nbtext_http_panics_total", "counter", "Handler panics recovered (answered with a 500).")
	val("nbtext_http_panics_total", "", m.panics.Load())

	head("nbtext_documents_total", "counter", "Documents answered, by model.")
	for _, sl := range s.slots {
		val("nbtext_documents_total", `model="`+escapeLabel(sl.name)+`"`, sl.docs.Load())
	}
	head("nbtext_model_version", "gauge", "Version of the model being served: 1 at start, +1 per successful reload.")
	for _, sl := range s.slots {
		val("nbtext_model_version", `model="`+escapeLabel(sl.name)+`"`, sl.cur.Load().version)
	}
	head("nbtext_model_loaded_timestamp_seconds", "gauge", "When the model being served was loaded, Unix time.")
	for _, sl := range s.slots {
		val("nbtext_model_loaded_timestamp_seconds", `model="`+escapeLabel(sl.name)+`"`, sl.cur.Load().at.Unix())
	}
	head("nbtext_model_reloads_total", "counter", "Reloads, by model and result (a refused file keeps the old model serving).")
	for _, sl := range s.slots {
		val("nbtext_model_reloads_total", `model="`+escapeLabel(sl.name)+`",result="ok"`, sl.reloadsOK.Load())
		val("nbtext_model_reloads_total", `model="`+escapeLabel(sl.name)+`",result="refused"`, sl.reloadsBad.Load())
	}
	return b.Flush()
}

// escapeLabel escapes a label value: backslash, double quote and newline.
func escapeLabel(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"':
			out = append(out, '\\', c)
		case '\n':
			out = append(out, '\\', 'n')
		default:
			out = append(out, c)
		}
	}
	return string(out)
}
