// Command fieldcorpus writes the records-with-fields corpus of
// docs/records.md: two close groups of the 20 Newsgroups bydate archive
// (by default comp.sys.ibm.pc.hardware and comp.sys.mac.hardware), each
// post a JSONL record with its label, its text and three fields drawn by
// internal/synth.Fields with a seeded RNG: `vendor`, the right vendor of
// the group (ibm, apple) for a fraction -accuracy of the posts, drawn
// independently of the text; `noise`, uniform over four values whatever
// the group; and `length`, the number of characters of the text. The
// train and test splits of the archive go to OUT/train.jsonl and
// OUT/test.jsonl. A development tool, not an nbtext command.
//
//	go run ./tools/fieldcorpus -corpus "$NBTEXT_20NEWS_TARBALL" -o /tmp/fields
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/synth"
)

func main() {
	var (
		path, out, groups, values string
		cfg                       synth.FieldConfig
	)
	flag.StringVar(&path, "corpus", os.Getenv(corpus.TarballEnv), "the 20news-bydate archive (default $"+corpus.TarballEnv+")")
	flag.StringVar(&groups, "groups", "comp.sys.ibm.pc.hardware,comp.sys.mac.hardware", "the groups, comma-separated")
	flag.StringVar(&values, "values", "ibm,apple", "the vendor of each group, comma-separated")
	flag.Float64Var(&cfg.Accuracy, "accuracy", 0.85, "fraction of posts whose vendor is their group's")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	flag.StringVar(&out, "o", "", "output folder: writes train.jsonl and test.jsonl")
	flag.Parse()
	cfg.Values = strings.Split(values, ",")
	if err := run(path, out, strings.Split(groups, ","), cfg); err != nil {
		fmt.Fprintln(os.Stderr, "fieldcorpus:", err)
		os.Exit(1)
	}
}

// record is one line of the output.
type record struct {
	Label  string `json:"label"`
	Text   string `json:"text"`
	Vendor string `json:"vendor"`
	Noise  string `json:"noise"`
	Length int    `json:"length"`
}

func run(path, out string, groups []string, cfg synth.FieldConfig) error {
	switch {
	case path == "":
		return fmt.Errorf("give -corpus or set %s", corpus.TarballEnv)
	case out == "":
		return fmt.Errorf("give -o, the output folder")
	case len(groups) != len(cfg.Values):
		return fmt.Errorf("%d groups but %d vendor values", len(groups), len(cfg.Values))
	}
	class := map[string]int{}
	for i, g := range groups {
		class[g] = i
	}
	f, err := synth.NewFields(cfg)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	// One stream of field draws, over the train split then the test
	// split, each in Read's deterministic order.
	for _, split := range []string{"train", "test"} {
		c, err := corpus.Read(path, corpus.Options{Split: split, Classes: groups})
		if err != nil {
			return err
		}
		dest := filepath.Join(out, split+".jsonl")
		err = fsutil.WriteFile(dest, func(w io.Writer) error {
			bw := bufio.NewWriter(w)
			enc := json.NewEncoder(bw)
			for _, d := range c.Docs {
				v, noise, _ := f.Next(class[d.Label], d.Text)
				if err := enc.Encode(record{Label: d.Label, Text: d.Text, Vendor: v, Noise: noise, Length: len([]rune(d.Text))}); err != nil {
					return err
				}
			}
			return bw.Flush()
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "fieldcorpus: %s: %d records\n", dest, len(c.Docs))
	}
	return nil
}
