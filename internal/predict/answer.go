package predict

import (
	"strconv"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// Answerer holds the scratch of one goroutine that answers documents one
// at a time, without the pipeline of Stream: a vectorizer, a scorer and a
// formatter for one model. It serves a request/response caller (the HTTP
// server) that has its documents in memory already. An Answerer is not
// safe for concurrent use: keep one per goroutine or recycle them through
// a sync.Pool. It may be used with any Predictor of the model it was made
// for.
type Answerer struct {
	m      *model.Model
	f      *formatter
	answer func(out []byte, rec *record, text string) ([]byte, model.Prediction)
}

// NewAnswerer returns an Answerer for the model of p.
func (p *Predictor) NewAnswerer() *Answerer {
	f := newFormatter(p.m, p.opt)
	return &Answerer{m: p.m, f: f, answer: p.answerer(f)}
}

// AppendText appends to dst the answer for text as Stream gives it for
// the JSONL line {"text": text} at line n with no id (id "n"): the same
// bytes as 'nbtext predict --input jsonl' with p's options, ending in a
// newline. The caller bounds the size of text (Options.MaxDocBytes is a
// bound on framed input). It panics when a was made for another model.
func (p *Predictor) AppendText(a *Answerer, dst []byte, n int, text string) ([]byte, model.Prediction) {
	rec := record{id: strconv.Itoa(n), n: n, text: text}
	return p.appendRecord(a, dst, &rec)
}

// AppendJSON appends to dst the answer for the JSON object obj read as
// line n of --input jsonl ("text" required, "id" and the model's record
// fields optional, other members passed through), as Stream writes it. An
// object that is not one is an error naming name and n, as Stream's
// framing errors do, and nothing is appended.
func (p *Predictor) AppendJSON(a *Answerer, dst []byte, name string, n int, obj []byte) ([]byte, model.Prediction, error) {
	fields := p.opt.Fields
	fields.normalize()
	rec, err := parseJSONRecord(obj, name, n, strconv.Itoa(n), fields, nil)
	if err != nil {
		return dst, model.Prediction{}, err
	}
	out, pr := p.appendRecord(a, dst, &rec)
	return out, pr, nil
}

// appendRecord scores rec with a's scratch and p's options, as a worker
// does.
func (p *Predictor) appendRecord(a *Answerer, dst []byte, rec *record) ([]byte, model.Prediction) {
	if a.m != p.m {
		panic("predict: Answerer used with a Predictor of another model")
	}
	a.f.opt = p.opt
	text := rec.text
	if p.strip != 0 {
		text = corpus.Strip(text, p.strip)
	}
	return a.answer(dst, rec, text)
}
