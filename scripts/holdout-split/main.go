// Command holdout-split splits the train split of a corpus archive laid
// out as TOP/train/LABEL/FILE and TOP/test/LABEL/FILE (the shared ldcc,
// ttc-3600 and langdetect17 archives; 20news-bydate with -top) into a
// training part and a held-out part, on which nbtext's defaults are
// chosen, and writes the test split beside them for the final figures.
// With -chars N, each text is cut to its first N characters (after a
// byte-order mark and leading white space), the short-text variant.
//
//	go run ./scripts/holdout-split ../shared/data/ldcc.tar.gz /tmp/ldcc
//	go run ./scripts/holdout-split -chars 200 ../shared/data/ldcc.tar.gz /tmp/ldcc-200
//	nbtext train /tmp/ldcc/train.jsonl -o m.nbm && nbtext eval -m m.nbm /tmp/ldcc/holdout.jsonl
//
// It writes OUTDIR/train.jsonl, OUTDIR/holdout.jsonl and OUTDIR/test.jsonl,
// one {"label": ..., "text": ...} object per line. -percent (default 20)
// of each label's train documents, in an order drawn from -seed (default
// 1), are held out: the same seed gives the same files. Texts are read as
// UTF-8 (invalid bytes become U+FFFD).
package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

type doc struct{ label, name, text string }

func main() {
	pct := flag.Int("percent", 20, "percent of each label's train documents held out")
	seed := flag.Uint64("seed", 1, "seed of the held-out draw")
	chars := flag.Int("chars", 0, "cut each text to its first N characters (0: whole)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: holdout-split [-percent P] [-seed S] [-chars N] ARCHIVE OUTDIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 || *pct < 1 || *pct > 99 || *chars < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), *pct, *seed, *chars); err != nil {
		fmt.Fprintln(os.Stderr, "holdout-split:", err)
		os.Exit(1)
	}
}

func run(archive, out string, pct int, seed uint64, chars int) error {
	splits, err := read(archive, chars)
	if err != nil {
		return err
	}
	if len(splits["train"]) == 0 || len(splits["test"]) == 0 {
		return fmt.Errorf("%s: no TOP/train/LABEL/FILE or TOP/test/LABEL/FILE documents", archive)
	}
	byLabel := map[string][]doc{}
	for _, d := range splits["train"] {
		byLabel[d.label] = append(byLabel[d.label], d)
	}
	labels := make([]string, 0, len(byLabel))
	for l := range byLabel {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	r := rand.New(rand.NewPCG(seed, 0x686f6c64))
	var train, held []doc
	for _, l := range labels {
		ds := byLabel[l]
		slices.SortFunc(ds, func(a, b doc) int { return strings.Compare(a.name, b.name) })
		r.Shuffle(len(ds), func(i, j int) { ds[i], ds[j] = ds[j], ds[i] })
		k := (len(ds)*pct + 50) / 100
		held = append(held, ds[:k]...)
		train = append(train, ds[k:]...)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, ds := range map[string][]doc{"train.jsonl": train, "holdout.jsonl": held, "test.jsonl": splits["test"]} {
		if err := write(filepath.Join(out, name), ds); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "holdout-split: %d train, %d held out, %d test documents in %s\n", len(train), len(held), len(splits["test"]), out)
	return nil
}

// read returns the documents of archive by split ("train", "test").
func read(archive string, chars int) (map[string][]doc, error) {
	f, err := os.Open(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	tr := tar.NewReader(gz)
	splits := map[string][]doc{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", archive, err)
		}
		parts := strings.Split(h.Name, "/")
		if h.Typeflag != tar.TypeReg || len(parts) != 4 || (parts[1] != "train" && parts[1] != "test") {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", archive, h.Name, err)
		}
		splits[parts[1]] = append(splits[parts[1]], doc{label: parts[2], name: h.Name, text: cut(string(b), chars)})
	}
	return splits, nil
}

// cut returns text without a leading byte-order mark and white space, and
// then its first n characters (n = 0: all of it).
func cut(text string, n int) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	if n == 0 {
		return text
	}
	text = strings.TrimLeftFunc(strings.TrimPrefix(text, "\uFEFF"), unicode.IsSpace)
	k := 0
	for i := range text {
		if k == n {
			return text[:i]
		}
		k++
	}
	return text
}

func write(path string, ds []doc) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, d := range ds {
		if err := enc.Encode(map[string]string{"label": d.label, "text": d.text}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
