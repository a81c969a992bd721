// The outputs of a learning curve (nbtext compare): the table or CSV on a
// writer, and the CSV and plot files written together.

package eval

import (
	"io"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// WriteOutputs writes the curves of r: the table to out (with csv "-",
// the CSV instead), then the CSV to the file csv and the plot to the file
// plot (.png or .svg, titled by CurveTitle), each when not "". The two
// files are committed together: a failure or a kill while either is
// written leaves both old files. It returns the files it wrote.
func (r *CurveResult) WriteOutputs(out io.Writer, csv, plot string) (wrote []string, err error) {
	if csv == "-" {
		err = r.WriteCSV(out)
	} else {
		err = r.WriteTable(out)
	}
	if err != nil {
		return nil, err
	}
	var files []fsutil.File
	if csv != "" && csv != "-" {
		files = append(files, fsutil.File{Path: csv, Write: r.WriteCSV})
	}
	if plot != "" {
		draw, err := PlotWriter(r, plot, CurveTitle(r))
		if err != nil {
			return nil, err
		}
		files = append(files, fsutil.File{Path: plot, Write: draw})
	}
	if err := fsutil.WriteFiles(files...); err != nil {
		return nil, err
	}
	for _, f := range files {
		wrote = append(wrote, f.Path)
	}
	return wrote, nil
}
