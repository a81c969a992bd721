package counts

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Info describes a counts file for 'nbtext info': what it counted and
// how much, read streaming (one term at a time, whatever the file's
// size), its checksum checked.
type Info struct {
	File          string             `json:"file"`
	Size          int64              `json:"size"`
	SHA256        string             `json:"sha256"`
	FormatVersion int                `json:"format_version"`
	Round         int                `json:"round"`
	Vocab         string             `json:"vocab,omitempty"`
	Settings      vectorize.Settings `json:"settings"`
	Documents     int64              `json:"documents"`
	Classes       []string           `json:"classes"`
	ClassDocs     []int64            `json:"class_docs"`
	Terms         int64              `json:"terms"`
	Cells         int64              `json:"cells"`
	// Inputs are what was counted (nil: not recorded, an older nbtext).
	Inputs []Input `json:"inputs"`
}

// Inspect reads the counts file at path whole and describes it. A file
// that is not a counts file is ErrNotCounts (wrapped, naming it).
func Inspect(path string) (*Info, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	cr := &countingReader{r: io.TeeReader(bufio.NewReaderSize(f, 1<<16), h)}
	r, err := newReader(cr, path)
	if err != nil {
		return nil, err
	}
	info := &Info{File: path, Settings: r.hdr.Settings, Vocab: r.hdr.Vocab, Documents: r.hdr.Documents(),
		Classes: r.hdr.Classes, ClassDocs: r.hdr.ClassDocs, Inputs: r.hdr.Inputs, Round: 1, FormatVersion: int(fileVersion(&r.hdr))}
	if r.hdr.Weighted() {
		info.Round = 2
	}
	for {
		_, cells, ok, err := r.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		info.Terms++
		info.Cells += int64(len(cells))
	}
	info.Size, info.SHA256 = cr.n, hex.EncodeToString(h.Sum(nil))
	return info, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Write writes info in format: "table" (WriteTable) or "json"
// (WriteJSON); another format is an error.
func (info *Info) Write(w io.Writer, format string) error {
	switch format {
	case "table":
		return info.WriteTable(w)
	case "json":
		return info.WriteJSON(w)
	}
	return fmt.Errorf("--format must be table or json, got %q", format)
}

// WriteJSON writes info as one indented JSON object.
func (info *Info) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteTable writes info for a person: one field per line, the classes
// with their documents, and the inputs: each with the shards of it held,
// its documents, bytes and digest.
func (info *Info) WriteTable(w io.Writer) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	row := func(k, format string, a ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, a...)) }
	row("file", "%s", info.File)
	row("size", "%d bytes", info.Size)
	row("sha256", "%s", info.SHA256)
	row("format", "counts, version %d", info.FormatVersion)
	if info.Round == 2 {
		row("round", "two (weighted sums over the vocabulary %.12s…)", info.Vocab)
	} else {
		row("round", "one")
	}
	row("documents", "%d", info.Documents)
	row("classes", "%d", len(info.Classes))
	row("terms", "%d (%d term-class cells)", info.Terms, info.Cells)
	js, _ := json.Marshal(info.Settings)
	row("settings", "%s", js)
	if info.Inputs == nil {
		row("inputs", "not recorded (counted by an older nbtext or a tool that does not record them, or merged with such counts)")
	} else {
		complete := 0
		for _, in := range info.Inputs {
			if in.Of == 1 {
				complete++
			}
		}
		row("inputs", "%d (%d whole, %d in part)", len(info.Inputs), complete, len(info.Inputs)-complete)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(info.Inputs) > 0 {
		fmt.Fprintf(&b, "\ninputs (shards held, documents, bytes of text, sha256)\n")
		tw = tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		for _, in := range info.Inputs {
			shards := "all"
			if in.Of > 1 {
				shards = "shard " + in.shardList()
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%s\n", in.Name, shards, in.Docs, in.Bytes, in.SHA256)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "\nclasses (%d)\n", len(info.Classes))
	for i, c := range info.Classes {
		fmt.Fprintf(&b, "  %-24s %d\n", c, info.ClassDocs[i])
	}
	_, err := w.Write(b.Bytes())
	return err
}
