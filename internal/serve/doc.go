// Package serve owns nbtext's HTTP server: a small JSON API over one or
// more loaded models, their hot reload, the limits that bound what a
// client can make it hold, and its metrics.
//
// Endpoints:
//   - POST /v1/predict: {"text": "..."}, {"texts": [...]}, {"record": {...}}
//     or {"records": [...]} (an object as one line of 'predict --input
//     jsonl': "text", an optional "id", the model's record fields, other
//     members passed through), with the options of predict ("top_k",
//     "threshold", "explain", "costs") and "model" to choose among several.
//     One document is answered with the object 'predict --format json'
//     writes for it, byte for byte (scoring and output are package
//     predict's: predict.Answerer); a batch with {"model": NAME, "version":
//     N, "predictions": [those objects, in order]}. The headers
//     Nbtext-Model and Nbtext-Model-Version name the model that answered.
//   - GET /v1/models: each model's name, path, version and what 'nbtext
//     info --format json' shows of it.
//   - GET /healthz: {"status": "ok"} while serving.
//   - GET /metrics: the Prometheus text format (version 0.0.4), written
//     here: requests by handler and status, a latency histogram, documents,
//     model versions and reloads, in-flight requests, connections.
//
// Conventions:
//   - Hot reload: a model is held behind an atomic pointer. A reload (Reload,
//     which SIGHUP calls, or the watcher, which polls each file's identity
//     and modification time every Config.Watch) loads and checks the whole
//     file first and swaps the pointer only then: a request uses the model
//     it found when it started to its end, the next one uses the new model,
//     and no request fails or sees a half-loaded model. A file that does
//     not load (damaged, cut, not a model) is refused and logged, and the
//     old model keeps serving; the watcher tries a file again only when it
//     changes. Polling rather than inotify: a stat per model per second
//     costs nothing, sees the rename that replaces a file (an inotify watch
//     follows the old inode), and works where inotify does not (network
//     and container bind mounts).
//   - Limits, each a Config field: connections (over it the connection
//     that has waited longest without a request in progress is closed to
//     make room, so idle and slow connections cannot lock clients out;
//     when all are busy the new one gets a 503 and is closed), header bytes and header read time (slowloris),
//     body bytes (413), whole-request read and write times, idle
//     keep-alive time, documents per batch and bytes per document (413),
//     requests being answered at once (more wait up to Config.QueueWait,
//     then get a 503). Memory is therefore bounded by the models plus about
//     MaxConcurrent × 3 × MaxBodyBytes plus MaxConns × (MaxHeaderBytes +
//     16 KiB), whatever the clients do.
//   - Errors are JSON, {"error": "..."}, with a status that says whose fault
//     it is: 400 (malformed JSON, a body that is not UTF-8, an unknown
//     model or field, an option out of range), 404, 405, 413, 503; a panic
//     in a handler is recovered, logged and answered with a 500. Errors the
//     standard library answers before a handler runs (a malformed request
//     line, 431 for headers over the limit) are plain text.
//   - Shutdown: when the context of Serve ends (SIGTERM or SIGINT in Run) the
//     server stops accepting, lets requests in flight finish (at most
//     Config.ShutdownTimeout) and returns.
//
// It does not fit models or parse command-line flags.
package serve
