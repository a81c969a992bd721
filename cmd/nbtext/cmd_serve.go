package main

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/pipeline"
	"github.com/nbtext/nbtext/internal/serve"
)

// serveOptions are the flags of 'nbtext serve'.
type serveOptions struct {
	models []string
	cfg    serve.Config
}

func (o *serveOptions) AddFlags(fs *pflag.FlagSet) {
	d := serve.DefaultConfig()
	o.cfg = d
	fs.StringArrayVarP(&o.models, "model", "m", nil, "model file to serve, as MODEL (named after its file: news.nbm is news) or NAME=MODEL; repeat for several, the first is the default (required)")
	fs.StringVar(&o.cfg.Addr, "addr", d.Addr, "host:port to listen on (default: localhost only; :8080 listens on every interface)")
	fs.Int64Var(&o.cfg.MaxBodyBytes, "max-body-bytes", d.MaxBodyBytes, "largest request body; larger ones get a 413")
	fs.IntVar(&o.cfg.MaxBatch, "max-batch", d.MaxBatch, "most documents in one request; more get a 413")
	fs.IntVar(&o.cfg.MaxDocBytes, "max-doc-bytes", d.MaxDocBytes, "largest document (a text, or a record's JSON); larger get a 413")
	fs.IntVar(&o.cfg.MaxConcurrent, "max-concurrent", d.MaxConcurrent, "requests answered at once; more wait up to --queue-wait, then get a 503 (default: 4 per core)")
	fs.DurationVar(&o.cfg.QueueWait, "queue-wait", d.QueueWait, "how long a request waits for one of --max-concurrent slots before a 503")
	fs.IntVar(&o.cfg.MaxConns, "max-conns", d.MaxConns, "open connections; one more is answered with a 503 and closed")
	fs.IntVar(&o.cfg.MaxHeaderBytes, "max-header-bytes", d.MaxHeaderBytes, "largest request line and headers (431 over it)")
	fs.DurationVar(&o.cfg.ReadHeaderTimeout, "read-header-timeout", d.ReadHeaderTimeout, "time a client has to send a request's headers (slow clients are cut)")
	fs.DurationVar(&o.cfg.ReadTimeout, "read-timeout", d.ReadTimeout, "time a client has to send a whole request")
	fs.DurationVar(&o.cfg.WriteTimeout, "write-timeout", d.WriteTimeout, "time from a request's headers to the end of its answer")
	fs.DurationVar(&o.cfg.IdleTimeout, "idle-timeout", d.IdleTimeout, "how long an idle keep-alive connection stays open")
	fs.DurationVar(&o.cfg.ShutdownTimeout, "shutdown-timeout", d.ShutdownTimeout, "on SIGTERM or SIGINT, how long requests in flight have to finish")
	fs.DurationVar(&o.cfg.Watch, "watch", d.Watch, "how often to check the model files and reload one that changed (0: only on SIGHUP)")
	fs.IntVar(&o.cfg.Workers, "batch-workers", 0, "goroutines that share a batch of 32 documents or more (0: one per core)")
}

func newServeCmd(g *globalOptions) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:     "serve -m MODEL [-m NAME=MODEL ...] [--addr HOST:PORT]",
		Short:   "Answer predictions over HTTP with a JSON API; reload models without a restart",
		Long:    helpText("serve"),
		Example: exampleText("serve"),
		Args:    cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, args []string) error {
			o.cfg.LabelThreshold = pipeline.DefaultLabelThreshold
			return withCode(exitUsage, o.cfg.ValidateSpecs(o.models))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			err := serve.Run(cmd.Context(), o.cfg, cmd.ErrOrStderr())
			if errors.Is(err, model.ErrModelFile) {
				return withCode(exitBadModel, err)
			}
			return err
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
