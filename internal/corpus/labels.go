package corpus

import (
	"fmt"
	"strings"
)

// cleanLabel returns label without a byte-order mark and surrounding white
// space; an empty result, or one holding a tab, line break or NUL, is an
// error naming where ("x.tsv:3").
func cleanLabel(where, label string) (string, error) {
	l := strings.TrimSpace(strings.TrimPrefix(label, utf8BOM))
	switch {
	case l == "":
		return "", fmt.Errorf("%s: empty label", where)
	case strings.ContainsAny(l, "\t\n\r\x00"):
		return "", fmt.Errorf("%s: label %q contains a tab, line break or NUL", where, l)
	}
	return l, nil
}

// setLabels cleans the raw labels of one record (split by o.LabelSep) and
// stores them in d: Label the first, Labels all of them with
// o.MultiLabel. Several labels without o.MultiLabel are an error naming
// where.
func (o *Options) setLabels(d *Document, where string, raw ...string) error {
	if len(raw) == 1 && (o.LabelSep == "" || !strings.Contains(raw[0], o.LabelSep)) {
		l, err := cleanLabel(where, raw[0])
		if err != nil {
			return err
		}
		d.Label = l
		if o.MultiLabel {
			d.Labels = []string{l}
		}
		return nil
	}
	var labels []string
	for _, r := range raw {
		parts := []string{r}
		if o.LabelSep != "" {
			parts = strings.Split(r, o.LabelSep)
		}
		for _, p := range parts {
			l, err := cleanLabel(where, p)
			if err != nil {
				return err
			}
			if !contains(labels, l) {
				labels = append(labels, l)
			}
		}
	}
	if len(labels) == 0 {
		return fmt.Errorf("%s: empty label", where)
	}
	if len(labels) > 1 && !o.MultiLabel {
		return fmt.Errorf("%s: %d labels on one record (%s): nbtext reads one label per document here", where, len(labels), listNames(labels))
	}
	d.Label = labels[0]
	if o.MultiLabel {
		d.Labels = labels
	}
	return nil
}

// contains reports whether s holds v.
func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// fieldSpec is which named fields a record format reads.
type fieldSpec struct {
	label    string
	text     []string
	extra    []string
	explicit bool // the caller named the label or text fields
}

// fields returns the field names of o, defaults filled in.
func (o *Options) fields() fieldSpec {
	f := fieldSpec{label: o.LabelField, text: o.TextFields, extra: o.ExtraFields}
	f.explicit = f.label != "" || len(f.text) > 0
	if f.label == "" {
		f.label = "label"
	}
	if len(f.text) == 0 {
		f.text = []string{"text"}
	}
	return f
}

// columns are the positions of the named fields in a header row.
type columns struct {
	label int
	text  []int
	extra []int
	names []string // the extra fields' names
	n     int      // number of columns in the header
}

// locate finds the fields of f in the header cells (cleaned), or returns an
// error naming the first one missing and the columns there are.
func (f fieldSpec) locate(where string, header []string) (*columns, error) {
	idx := make(map[string]int, len(header))
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, utf8BOM))
		if _, dup := idx[h]; !dup {
			idx[h] = i
		}
	}
	find := func(name, flag string) (int, error) {
		if i, ok := idx[name]; ok {
			return i, nil
		}
		return 0, fmt.Errorf("%s: the header has no column %q (%s; columns: %s)", where, name, flag, listNames(header))
	}
	c := &columns{n: len(header), names: f.extra}
	var err error
	if c.label, err = find(f.label, "--label-field"); err != nil {
		return nil, err
	}
	for _, t := range f.text {
		i, err := find(t, "--text-field")
		if err != nil {
			return nil, err
		}
		c.text = append(c.text, i)
	}
	for _, e := range f.extra {
		i, err := find(e, "extra field")
		if err != nil {
			return nil, err
		}
		c.extra = append(c.extra, i)
	}
	return c, nil
}

// isHeader reports whether the cells of a first row name the label field
// and every text field; mentions reports whether they name any of them.
func (f fieldSpec) isHeader(cells []string) (is, mentions bool) {
	have := make(map[string]bool, len(cells))
	for _, c := range cells {
		have[strings.TrimSpace(strings.TrimPrefix(c, utf8BOM))] = true
	}
	is = have[f.label]
	mentions = have[f.label]
	for _, t := range f.text {
		is = is && have[t]
		mentions = mentions || have[t]
	}
	return is, mentions
}

// record builds the document of one row of cells (decoded strings) read
// under the header c.
func (c *columns) record(o *Options, where string, cells []string) (Document, error) {
	d := Document{ID: where}
	if err := o.setLabels(&d, where, cells[c.label]); err != nil {
		return Document{}, err
	}
	if len(c.text) == 1 {
		d.Text = cells[c.text[0]]
	} else {
		parts := make([]string, len(c.text))
		for i, t := range c.text {
			parts[i] = cells[t]
		}
		d.Text = strings.Join(parts, "\n")
	}
	for i, e := range c.extra {
		if v := cells[e]; v != "" {
			if d.Fields == nil {
				d.Fields = make(map[string]string, len(c.extra))
			}
			d.Fields[c.names[i]] = v
		}
	}
	return d, nil
}
