package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// MemberInfo describes one member of an ensemble for 'nbtext info'.
type MemberInfo struct {
	Kind     string             `json:"kind"`
	Weight   float64            `json:"weight"`
	Terms    int                `json:"terms"`
	Settings vectorize.Settings `json:"settings"`
	Params   Params             `json:"params"`
}

// ensembleInfo completes info for the ensemble m: its members, and how it
// was chosen (the search's summary, Meta.Auto).
func ensembleInfo(info *Info, m *Model) {
	info.Auto = m.Meta.Auto
	for k, mem := range m.Members {
		info.Members = append(info.Members, MemberInfo{Kind: mem.Kind.String(), Weight: m.Weights[k], Terms: mem.NumTerms(),
			Settings: mem.Vocab.Settings, Params: mem.Params})
		info.Terms += mem.NumTerms()
		info.VocabDocs = max(info.VocabDocs, mem.Vocab.NDocs)
	}
}

// writeMembers writes the members of an ensemble and how they were chosen.
func writeMembers(b *bytes.Buffer, info *Info) error {
	var auto struct {
		Metric   string `json:"metric"`
		Ensemble *struct {
			Rounds, Docs, Library int
			Score, Single         float64
		} `json:"ensemble"`
	}
	if len(info.Auto) > 0 && json.Unmarshal(info.Auto, &auto) == nil && auto.Ensemble != nil {
		e := auto.Ensemble
		fmt.Fprintf(b, "\nchosen by 'train --auto': greedy ensemble selection with replacement (Caruana et al. 2004), %d rounds over the %d best candidates,\n"+
			"  on %d held-out documents of the search's folds: %s %.4f, against %.4f for the best single candidate\n",
			e.Rounds, e.Library, e.Docs, auto.Metric, e.Score, e.Single)
	}
	fmt.Fprintf(b, "\nmembers (%d): P(c|x) = Σ weight · P_member(c|x)\n", len(info.Members))
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  weight\tkind\tterms\tsettings\tparams\n")
	for _, mi := range info.Members {
		var set, par []string
		for _, kv := range jsonFields(mi.Settings) {
			set = append(set, kv[0]+"="+kv[1])
		}
		for _, kv := range jsonFields(mi.Params) {
			switch kv[1] {
			case "0", `""`, "false", "null", "[]":
				continue
			}
			par = append(par, kv[0]+"="+kv[1])
		}
		fmt.Fprintf(tw, "  %.2f\t%s\t%d\t%s\t%s\n", mi.Weight, mi.Kind, mi.Terms, strings.Join(set, " "), strings.Join(par, " "))
	}
	return tw.Flush()
}
