package model

import "math"

// ClassParams describes one field's parameters for one class, for 'nbtext
// info': a categorical field's smoothed probabilities (or one-hot weights)
// per value, a numeric field's mean and smoothed variance (NB) or the
// weight of its standardised value (linear); what a field does not have
// is nil.
type ClassParams struct {
	Class string `json:"class"`
	// Categorical: value -> P(value|class) (NB) or weight (linear); the
	// key "(unseen)" holds an unseen value's share (NB only: for a linear
	// model an unseen value adds nothing).
	Values map[string]float64 `json:"values,omitempty"`
	// Numeric: μ_c and σ²_c + ε (NB), or the weight of the standardised
	// value (linear).
	Mean   *float64 `json:"mean,omitempty"`
	Var    *float64 `json:"var,omitempty"`
	Weight *float64 `json:"weight,omitempty"`
	// Bandwidth is a kernel density's h_c (0: the class has no values
	// and uses the Gaussian of the field's overall mean and variance).
	Bandwidth *float64 `json:"bandwidth,omitempty"`
}

// FieldInfo is a field's parameters as 'nbtext info' lists them.
type FieldInfo struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "categorical" or "numeric"
	// Density is how a numeric field enters the score when it is not a
	// Gaussian (NB) or a linear weight: "kernel" (NB with kernel
	// densities; Bins is the number of grid points) or "qda" (Mean and
	// Var are μ_cj and the diagonal entry of Σ_c).
	Density string `json:"density,omitempty"`
	Bins    int    `json:"bins,omitempty"`
	// NB: Alpha (categorical) or Epsilon (numeric); linear numeric:
	// Center and Scale of the standardisation.
	Alpha   float64       `json:"alpha,omitempty"`
	Shrink  float64       `json:"shrink,omitempty"`
	Epsilon float64       `json:"epsilon,omitempty"`
	Center  *float64      `json:"center,omitempty"`
	Scale   *float64      `json:"scale,omitempty"`
	Classes []ClassParams `json:"classes"`
}

// FieldInfo lists the parameters of every record field of m (nil when it
// has none), categorical fields first.
func (m *Model) FieldInfo() []FieldInfo {
	if m.Fields == nil {
		return nil
	}
	C := len(m.Classes)
	gen := m.Kind.Generative()
	var out []FieldInfo
	for _, f := range m.Fields.Categorical {
		fi := FieldInfo{Name: f.Name, Kind: "categorical", Alpha: f.Alpha, Shrink: f.Shrink}
		for c := 0; c < C; c++ {
			cp := ClassParams{Class: m.Classes[c], Values: map[string]float64{}}
			for k := 0; k <= len(f.Values); k++ {
				name := "(unseen)"
				if k < len(f.Values) {
					name = f.Values[k]
				}
				x := f.table[k*C+c]
				if gen {
					x = math.Exp(x)
				}
				if k < len(f.Values) || gen {
					cp.Values[name] = x
				}
			}
			fi.Classes = append(fi.Classes, cp)
		}
		out = append(out, fi)
	}
	for j, f := range m.Fields.Numeric {
		fi := FieldInfo{Name: f.Name, Kind: "numeric", Epsilon: f.Epsilon}
		if q := m.Fields.Quadratic; q != nil {
			d := len(m.Fields.Numeric)
			fi.Density, fi.Center, fi.Scale = "qda", ptr(f.Center), ptr(f.Scale)
			for c := 0; c < C; c++ {
				fi.Classes = append(fi.Classes, ClassParams{Class: m.Classes[c], Mean: ptr(q.Mean[c*d+j]), Var: ptr(q.Cov[c*d*d+j*d+j])})
			}
			out = append(out, fi)
			continue
		}
		if f.kern != nil {
			fi.Density, fi.Bins = "kernel", len(f.Bins)/C
		}
		if !gen {
			fi.Center, fi.Scale = ptr(f.Center), ptr(f.Scale)
		}
		for c := 0; c < C; c++ {
			cp := ClassParams{Class: m.Classes[c]}
			if gen {
				cp.Mean, cp.Var = ptr(f.mu[c]), ptr(0.5/f.inv2var[c])
				if f.kern != nil {
					cp.Bandwidth = ptr(f.Bandwidth[c])
				}
			} else {
				cp.Weight = ptr(f.Weights[c])
			}
			fi.Classes = append(fi.Classes, cp)
		}
		out = append(out, fi)
	}
	return out
}

func ptr(x float64) *float64 { return &x }
