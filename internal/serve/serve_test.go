package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/predict"
)

var testTexts = []string{
	"the engine of my car",
	"",
	"senate votes on the tax bill\nand congress debates",
	"rocket launch into orbit \"quoted\" \t tab",
	"zzz qqq words the model never saw",
	"encryption keys and pgp",
	"ünïcödé 日本語 text",
}

// TestPredictMatchesPredict checks that the server answers with the bytes
// predict writes for the same documents and options, one at a time and in
// batches, for several kinds of model.
func TestPredictMatchesPredict(t *testing.T) {
	dir := t.TempDir()
	models := []string{"multinomial-scaled-v2.nbm", "complement-v2.nbm", "bernoulli-v2.nbm", "logreg-v2.nbm", "multilabel-v3.nbm", "hashed-v4.nbm"}
	var specs []ModelSpec
	for i, name := range models {
		specs = append(specs, ModelSpec{Name: fmt.Sprintf("m%d", i), Path: copyModel(t, name, dir, name)})
	}
	ts := start(t, testConfig(specs...))
	lines := textLines(testTexts)
	// Many documents so that a batch is split over goroutines.
	var many []string
	for i := 0; i < 5*MinSplit; i++ {
		many = append(many, testTexts[i%len(testTexts)]+fmt.Sprint(" ", i))
	}
	for _, c := range []struct {
		opts string
		opt  predict.Options
	}{
		{"", predict.Options{}},
		{`,"top_k":2,"explain":3`, predict.Options{TopK: 2, Explain: 3}},
		{`,"threshold":0.7`, predict.Options{Threshold: 0.7}},
		{`,"top_k":3,"threshold":0.2`, predict.Options{TopK: 3, Threshold: 0.2}},
	} {
		for i, sp := range specs {
			opt := c.opt
			if models[i] == "multilabel-v3.nbm" {
				if !strings.Contains(c.opts, "threshold") {
					opt.Threshold = 0.5
				}
				m := mustLoad(t, sp.Path)
				opt.LabelThresholds = m.Thresholds(opt.Threshold, strings.Contains(c.opts, "threshold"))
			}
			want := predictJSON(t, sp.Path, opt, lines)
			texts, _ := json.Marshal(testTexts)
			code, h, body := ts.post(t, "/v1/predict", `{"model":"`+sp.Name+`","texts":`+string(texts)+c.opts+`}`)
			if code != 200 {
				t.Fatalf("%s%s: %d %s", models[i], c.opts, code, body)
			}
			if got, _ := batchAnswer(t, body); got != want {
				t.Errorf("%s%s: batch answer\n%s\nwant (predict)\n%s", models[i], c.opts, got, want)
			}
			if h.Get("Nbtext-Model") != sp.Name || h.Get("Nbtext-Model-Version") != "1" || h.Get("Content-Type") != "application/json" {
				t.Errorf("%s: headers %v", models[i], h)
			}
			first := strings.SplitAfter(want, "\n")[0]
			code, _, body = ts.post(t, "/v1/predict", `{"model":"`+sp.Name+`","text":`+strings.TrimPrefix(strings.TrimSuffix(lines[0], "}"), `{"text":`)+c.opts+`}`)
			if code != 200 || body != first {
				t.Errorf("%s%s: single answer %d\n%s\nwant (predict)\n%s", models[i], c.opts, code, body, first)
			}
			manyJSON, _ := json.Marshal(many)
			code, _, body = ts.post(t, "/v1/predict", `{"model":"`+sp.Name+`","texts":`+string(manyJSON)+c.opts+`}`)
			if got, _ := batchAnswer(t, body); code != 200 || got != predictJSON(t, sp.Path, opt, textLines(many)) {
				t.Errorf("%s%s: split batch differs from predict", models[i], c.opts)
			}
		}
	}
}

// TestRecords checks records with fields, ids and members passed
// through, as predict --input jsonl answers them.
func TestRecords(t *testing.T) {
	dir := t.TempDir()
	path := copyModel(t, "logreg-fields-v3.nbm", dir, "fields.nbm")
	ts := start(t, testConfig(ModelSpec{"fields", path}))
	info := mustLoad(t, path).Fields
	var cat, num string
	if len(info.Categorical) > 0 {
		cat = info.Categorical[0].Name
	}
	if len(info.Numeric) > 0 {
		num = info.Numeric[0].Name
	}
	recs := []string{
		fmt.Sprintf(`{"id":"a","text":"the car engine","%s":"x","%s":3.5,"keep":[1,2]}`, cat, num),
		fmt.Sprintf(`{"text":"senate tax","%s":null}`, num),
		`{"id":7,"text":""}`,
	}
	want := predictJSON(t, path, predict.Options{Explain: 2}, recs)
	code, _, body := ts.post(t, "/v1/predict", `{"records":[`+strings.Join(recs, ",")+`],"explain":2}`)
	if got, _ := batchAnswer(t, body); code != 200 || got != want {
		t.Errorf("records: %d\n%s\nwant (predict)\n%s", code, got, want)
	}
	code, _, body = ts.post(t, "/v1/predict", `{"record":`+recs[0]+`,"explain":2}`)
	if code != 200 || body != strings.SplitAfter(want, "\n")[0] {
		t.Errorf("record: %d %s", code, body)
	}
	code, _, body = ts.post(t, "/v1/predict", `{"records":[{"id":1}]}`)
	if code != 400 || !strings.Contains(body, `records:1: missing \"text\" field`) {
		t.Errorf("record without text: %d %s", code, body)
	}
}

// TestBadRequests checks that each bad request gets a JSON error with
// the status that says what is wrong, and that the server goes on.
func TestBadRequests(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(ModelSpec{"news", copyModel(t, "multinomial-scaled-v2.nbm", dir, "news.nbm")})
	cfg.MaxBodyBytes, cfg.MaxBatch, cfg.MaxDocBytes = 4096, 3, 100
	ts := start(t, cfg)
	for _, c := range []struct {
		method, path, body string
		code               int
		msg                string
	}{
		{"GET", "/v1/predict", "", 405, "method GET not allowed"},
		{"POST", "/v1/models", "{}", 405, "not allowed"},
		{"GET", "/nope", "", 404, "no such endpoint"},
		{"POST", "/v1/predict", `{"text": "a"`, 400, "malformed request"},
		{"POST", "/v1/predict", ``, 400, "empty body"},
		{"POST", "/v1/predict", `[1,2]`, 400, "want a JSON object"},
		{"POST", "/v1/predict", `{"text": 3}`, 400, `\"text\" must not be a JSON number`},
		{"POST", "/v1/predict", "{\"text\": \"caf\xe9\"}", 400, "not valid UTF-8"},
		{"POST", "/v1/predict", `{"text": "a", "model": "other"}`, 400, `unknown model \"other\" (loaded: news)`},
		{"POST", "/v1/predict", `{"text": "a", "topk": 3}`, 400, `unknown field \"topk\"`},
		{"POST", "/v1/predict", `{"text": "a", "texts": ["b"]}`, 400, "exactly one of"},
		{"POST", "/v1/predict", `{"top_k": 1}`, 400, "exactly one of"},
		{"POST", "/v1/predict", `{"text": "a"} {}`, 400, "data after"},
		{"POST", "/v1/predict", `{"text": "a", "top_k": -1}`, 400, `\"top_k\" must be ≥ 0`},
		{"POST", "/v1/predict", `{"text": "a", "threshold": 2}`, 400, `\"threshold\" must be between 0 and 1`},
		{"POST", "/v1/predict", `{"text": "a", "explain": 100000}`, 400, `\"explain\" must be between`},
		{"POST", "/v1/predict", `{"text": "a", "costs": "nolabel=2"}`, 400, `\"costs\"`},
		{"POST", "/v1/predict", `{"text": "` + strings.Repeat("x", 5000) + `"}`, 413, "--max-body-bytes"},
		{"POST", "/v1/predict", `{"texts": ["a","b","c","d"]}`, 413, "--max-batch"},
		{"POST", "/v1/predict", `{"texts": ["a","` + strings.Repeat("x", 101) + `"]}`, 413, "texts[1]: document of 101 bytes"},
	} {
		req, _ := http.NewRequest(c.method, ts.url+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error string }
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		raw, _ := json.Marshal(e.Error)
		if resp.StatusCode != c.code || err != nil || !strings.Contains(string(raw), c.msg) || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s %.40q: %d %q (%v), want %d and %q", c.method, c.path, c.body, resp.StatusCode, e.Error, err, c.code, c.msg)
		}
	}
	// A chunked body over the limit (no Content-Length) is cut at the limit.
	req, _ := http.NewRequest("POST", ts.url+"/v1/predict", strings.NewReader(`{"text":"`+strings.Repeat("y", 10000)+`"}`))
	req.ContentLength = -1
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("chunked oversized body: %d, want 413", resp.StatusCode)
	}
	if code, body := ts.get(t, "/healthz"); code != 200 || body != "{\"status\":\"ok\"}\n" {
		t.Errorf("healthz after bad requests: %d %s", code, body)
	}
	_, metrics := ts.get(t, "/metrics")
	for _, want := range []string{
		`nbtext_http_requests_total{handler="predict",code="400"} 14`,
		`nbtext_http_requests_total{handler="predict",code="413"} 4`,
		`nbtext_http_requests_total{handler="other",code="404"} 1`,
		`nbtext_http_request_errors_total{handler="predict"} 19`,
		`nbtext_model_version{model="news"} 1`,
		`nbtext_http_request_duration_seconds_count{handler="predict"} 19`,
		`nbtext_http_request_duration_seconds_bucket{handler="predict",le="+Inf"} 19`,
		`nbtext_documents_total{model="news"} 0`,
	} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, metrics)
		}
	}
}
