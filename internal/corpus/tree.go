package corpus

import (
	"fmt"
	"path"
	"strings"
)

// lister shows the folders of a tree, folder or archive alike. list returns
// the names of the sub-folders and files of the folder at rel (a slash path
// relative to the root, "" for the root), each sorted, hidden names (starting
// with ".") left out.
type lister interface {
	list(rel string) (dirs, files []string, err error)
}

// layout is where the documents of a tree are: the folder holding the label
// folders and, for each chosen label, its document files.
type layout struct {
	top    string     // slash path of the folder holding the label folders
	labels []labelDir // sorted by name
}

// labelDir is one label folder and its document files, sorted by name.
type labelDir struct {
	name  string
	files []string
}

// rel returns the slash path of file in label folder l.
func (y *layout) rel(l *labelDir, file string) string {
	return path.Join(y.top, l.name, file)
}

// unsupFolder is the name of a folder of unlabelled documents, as in the
// aclImdb layout (train/unsup): never a class unless Options.Classes names
// it.
const unsupFolder = "unsup"

// splitKinds are the split folder names a tree is recognised by when no
// split is asked for.
var splitKinds = []string{"train", "test"}

// matchesSplit reports whether folder name is the folder of split: the split
// itself or a name ending in "-" and the split ("20news-bydate-train").
func matchesSplit(name, split string) bool {
	return name == split || strings.HasSuffix(name, "-"+split)
}

// splitKind returns the known split a folder name stands for, or "".
func splitKind(name string) string {
	for _, k := range splitKinds {
		if matchesSplit(name, k) {
			return k
		}
	}
	return ""
}

// planTree finds the documents of a labelled tree. The tree is one of
//
//	ROOT/<label>/<doc>             plain
//	ROOT/<split>/<label>/<doc>     bydate: <split> is train, test, *-train or *-test
//
// possibly inside one wrapping folder (ROOT/<wrapper>/...), as archives made
// with "tar czf x.tgz corpus/" are. A split folder is one that holds
// folders. opts.Split picks one; without it a tree holding both train and
// test folders is an error. opts.Classes keeps a subset of the labels. src
// names the tree in messages; noun is "folder" or "archive".
//
// The wrapping folder may hold files beside its split folders (aclImdb/
// README beside aclImdb/train). Files that are not in a label folder, and
// a label folder named "unsup" (unlabelled documents, unless opts.Classes
// names it), are skipped with one summary warning.
func planTree(src, noun string, l lister, opts *Options) (*layout, error) {
	dirs, files, err := l.list("")
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 && len(files) == 0 {
		return nil, fmt.Errorf("%s: empty %s", src, noun)
	}
	base := ""
	var sk skipped
	if len(dirs) == 1 && len(files) == 0 && splitKind(dirs[0]) == "" &&
		(opts.Split == "" || !matchesSplit(dirs[0], opts.Split)) {
		sub, subFiles, err := l.list(dirs[0])
		if err != nil {
			return nil, err
		}
		if len(sub) > 0 && (len(subFiles) == 0 || hasSplit(sub, opts.Split)) {
			base, dirs, files = dirs[0], sub, subFiles
		}
	}
	defer func() { sk.warn(src, opts) }()

	// Split folders: known or asked-for names that hold folders.
	var splits []string
	for _, d := range dirs {
		if splitKind(d) == "" && (opts.Split == "" || !matchesSplit(d, opts.Split)) {
			continue
		}
		sub, _, err := l.list(path.Join(base, d))
		if err != nil {
			return nil, err
		}
		if len(sub) > 0 {
			splits = append(splits, d)
		}
	}

	y := &layout{top: base}
	switch {
	case len(splits) > 0 && opts.Split == "":
		kinds := map[string]bool{}
		for _, s := range splits {
			kinds[splitKind(s)] = true
		}
		if len(kinds) > 1 {
			return nil, fmt.Errorf("%s holds both train and test folders (%s): pass --split train or --split test",
				src, strings.Join(splits, ", "))
		}
		if len(splits) > 1 {
			return nil, fmt.Errorf("%s: several %s folders (%s): cannot tell which to read",
				src, splitKind(splits[0]), strings.Join(splits, ", "))
		}
		y.top = path.Join(base, splits[0])
	case opts.Split != "":
		var match []string
		for _, s := range splits {
			if matchesSplit(s, opts.Split) {
				match = append(match, s)
			}
		}
		switch {
		case len(match) == 0 && len(splits) == 0:
			return nil, &NoSplitError{Src: src, Split: opts.Split, Noun: noun, Folders: dirs}
		case len(match) == 0:
			return nil, fmt.Errorf("%s: no %s folder for --split %s (want a top folder named %s or *-%s; found %s)",
				src, opts.Split, opts.Split, opts.Split, opts.Split, listNames(splits))
		case len(match) > 1:
			return nil, fmt.Errorf("%s: several folders match --split %s (%s): cannot tell which to read",
				src, opts.Split, strings.Join(match, ", "))
		}
		y.top = path.Join(base, match[0])
	}
	// Files beside the split or label folders are not documents.
	for _, f := range files {
		sk.stray = append(sk.stray, path.Join(base, f))
	}

	labels, loose, err := l.list(y.top)
	if err != nil {
		return nil, err
	}
	if y.top != base {
		for _, f := range loose {
			sk.stray = append(sk.stray, path.Join(y.top, f))
		}
	}
	if len(labels) == 0 {
		where := src
		if y.top != "" {
			where = src + ": " + y.top
		}
		return nil, fmt.Errorf("%s: no label folders (want <label>/<doc>)", where)
	}
	keep, err := selectClasses(src, labels, opts.Classes)
	if err != nil {
		return nil, err
	}
	for _, name := range labels {
		if keep != nil && !keep[name] {
			continue
		}
		rel := path.Join(y.top, name)
		if name == unsupFolder && keep == nil {
			_, docs, err := l.list(rel)
			if err != nil {
				return nil, err
			}
			sk.unsup, sk.unsupDocs = rel, len(docs)
			continue
		}
		sub, docs, err := l.list(rel)
		if err != nil {
			return nil, err
		}
		for _, s := range sub {
			opts.warn("%s: ignoring folder %s: documents are the files directly inside a label folder", src, path.Join(rel, s))
		}
		if len(docs) == 0 {
			return nil, fmt.Errorf("%s: label folder %s has no documents", src, rel)
		}
		y.labels = append(y.labels, labelDir{name: name, files: docs})
	}
	if len(y.labels) == 0 {
		return nil, fmt.Errorf("%s: no labelled documents, only the unlabelled folder %s", src, path.Join(y.top, unsupFolder))
	}
	return y, nil
}

// hasSplit reports whether one of the folder names is a split folder (of
// split, when given).
func hasSplit(dirs []string, split string) bool {
	for _, d := range dirs {
		if splitKind(d) != "" || split != "" && matchesSplit(d, split) {
			return true
		}
	}
	return false
}

// skipped is what planTree leaves out of a tree: files not in a label
// folder and an unlabelled folder.
type skipped struct {
	stray     []string
	unsup     string // path of the unsup folder skipped, or ""
	unsupDocs int
}

// warn reports what was skipped, if anything, in one warning.
func (sk *skipped) warn(src string, opts *Options) {
	var parts []string
	if sk.unsup != "" {
		parts = append(parts, fmt.Sprintf("the unlabelled folder %s (%d documents; name %s in --classes to read it as a class)", sk.unsup, sk.unsupDocs, unsupFolder))
	}
	switch len(sk.stray) {
	case 0:
	case 1:
		parts = append(parts, fmt.Sprintf("%s: not in a label folder", sk.stray[0]))
	default:
		parts = append(parts, fmt.Sprintf("%d files not in a label folder: %s", len(sk.stray), listNames(sk.stray)))
	}
	if len(parts) > 0 {
		opts.warn("%s: ignoring %s", src, strings.Join(parts, "; and "))
	}
}

// selectClasses checks classes against the available labels (sorted) and
// returns the set to keep, or nil to keep all.
func selectClasses(src string, available, classes []string) (map[string]bool, error) {
	if len(classes) == 0 {
		return nil, nil
	}
	have := make(map[string]bool, len(available))
	for _, a := range available {
		have[a] = true
	}
	keep := make(map[string]bool, len(classes))
	for _, c := range classes {
		if !have[c] {
			return nil, fmt.Errorf("%s: unknown class %q (available: %s)", src, c, strings.Join(available, ", "))
		}
		keep[c] = true
	}
	return keep, nil
}

// listNames formats names for a message, shortening long lists.
// NoSplitError: --split names a split of a folder or archive that has no
// train/test folders at its top. Its message advises reading the tree
// without --split; a caller that cannot (compare) finds it with errors.As
// and gives its own advice, with Found.
type NoSplitError struct {
	Src, Split string
	Noun       string   // "folder" or "archive"
	Folders    []string // the folders at the top, maybe none
}

// Found says what the top of the tree holds instead of train/test
// folders, e.g. "the folder holds no train/test folders, only ham, spam".
func (e *NoSplitError) Found() string {
	if len(e.Folders) == 0 {
		return fmt.Sprintf("the %s holds no folders at all, only files", e.Noun)
	}
	return fmt.Sprintf("the %s holds no train/test folders, only %s", e.Noun, listNames(e.Folders))
}

func (e *NoSplitError) Error() string {
	msg := fmt.Sprintf("%s: no %s folder for --split %s: %s", e.Src, e.Split, e.Split, e.Found())
	if len(e.Folders) == 0 {
		return msg + " (want ROOT/<label>/<doc>)"
	}
	return msg + " (read it as ROOT/<label>/<doc> without --split)"
}

func listNames(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	const most = 8
	if len(names) > most {
		return fmt.Sprintf("%s, ... (%d in all)", strings.Join(names[:most], ", "), len(names))
	}
	return strings.Join(names, ", ")
}
