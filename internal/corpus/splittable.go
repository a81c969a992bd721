package corpus

// SplitFormat returns the format of the record file named name whose first
// bytes (up to 64 KiB, as read, before any decompression) are head, read
// with opts (Format, LabelPrefix), when the file can be read in pieces cut
// at line breaks: a record per line, so that a reader may start at any
// line: TSV, JSONL or fastText, not compressed. It returns "" for
// everything else: compressed files, archives, folders, CSV (a quoted
// field may hold line breaks), and files whose format neither the name nor
// head tells. A TSV piece that does not start the file must be read with
// the file's first line before it, which is a header row or a record of
// the first piece (see the package documentation on header rows).
func SplitFormat(name string, head []byte, opts Options) string {
	if codecOf(head) != codecNone || nameCodec(name) != codecNone {
		return ""
	}
	f := opts.Format
	if f == "" || f == FormatAuto {
		if f = formatByName(name); f == "" {
			f = sniffFormat(head, opts.prefix())
			if f == "" && isTxtName(name) {
				f = FormatTSV
			}
		}
	}
	switch f {
	case FormatTSV, FormatJSONL, FormatFastText:
		return f
	}
	return ""
}
