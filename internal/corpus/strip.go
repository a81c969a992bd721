package corpus

import (
	"strings"
	"unicode"
)

// Strip removes the parts of a 20 Newsgroups post that r names, in
// scikit-learn's order (fetch_20newsgroups in
// sklearn/datasets/_twenty_newsgroups.py): headers, then footers, then
// quotes. Each step is exactly scikit-learn's, including its corner cases;
// see StripHeader, StripFooter and StripQuotes.
func Strip(text string, r Remove) string {
	if r&RemoveHeaders != 0 {
		text = StripHeader(text)
	}
	if r&RemoveFooters != 0 {
		text = StripFooter(text)
	}
	if r&RemoveQuotes != 0 {
		text = StripQuotes(text)
	}
	return text
}

// StripHeader returns what follows the first blank line ("\n\n") of text,
// the end of the mail header. A text without one becomes empty, as with
// scikit-learn's strip_newsgroup_header (Python's str.partition). A header
// ended by "\r\n\r\n" is not recognised, as there.
func StripHeader(text string) string {
	_, after, _ := strings.Cut(text, "\n\n")
	return after
}

// StripFooter removes a trailing signature block as scikit-learn's
// strip_newsgroup_footer does: the text is trimmed of white space and cut
// into lines at "\n"; scanning from the last line backwards, the first line
// that is empty or only hyphens once trimmed of white space is the
// separator. When it is not the first line, the result is the trimmed text
// before it (without its "\n"); otherwise the text is returned unchanged
// (not even trimmed). White space is Python's str.isspace set.
func StripFooter(text string) string {
	s := pyStrip(text)
	// Scan lines backwards; end is the end of the current line in s.
	end := len(s)
	for {
		start := strings.LastIndexByte(s[:end], '\n') + 1
		if isSeparator(s[start:end]) {
			if start == 0 {
				return text // the separator is the first line
			}
			return s[:start-1]
		}
		if start == 0 {
			return text // no separator: the scan stopped at the first line
		}
		end = start - 1
	}
}

// isSeparator reports whether line, trimmed of white space, is empty or
// made only of '-' (Python: line.strip().strip("-") == "").
func isSeparator(line string) bool {
	return strings.Trim(pyStrip(line), "-") == ""
}

// quotePrefixes start a quote line, as in scikit-learn's _QUOTE_RE.
var quotePrefixes = []string{"In article", "Quoted from", "|", ">"}

// isQuote reports whether line matches scikit-learn's _QUOTE_RE
// "(writes in|writes:|wrote:|says:|said:|^In article|^Quoted from|^\||^>)"
// (case matters). The four marks ending in ':' are found from each colon
// backwards, so a line is scanned twice rather than five times.
func isQuote(line string) bool {
	for _, p := range quotePrefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	if strings.Contains(line, "writes in") {
		return true
	}
	for s := line; ; {
		i := strings.IndexByte(s, ':')
		if i < 0 {
			return false
		}
		before := s[:i]
		if strings.HasSuffix(before, "writes") || strings.HasSuffix(before, "wrote") ||
			strings.HasSuffix(before, "says") || strings.HasSuffix(before, "said") {
			return true
		}
		s = s[i+1:]
	}
}

// StripQuotes drops every line (split at "\n") that scikit-learn's
// strip_newsgroup_quoting drops: lines containing "writes in", "writes:",
// "wrote:", "says:" or "said:", and lines starting with "In article",
// "Quoted from", "|" or ">". The kept lines are joined with "\n".
func StripQuotes(text string) string {
	var sb strings.Builder
	rest := text
	kept, dropped := 0, false
	for {
		line, tail, more := strings.Cut(rest, "\n")
		if isQuote(line) {
			if !dropped {
				// First drop: copy the lines kept so far, without the
				// "\n" that ends the last of them.
				sb.Grow(len(text))
				if kept > 0 {
					sb.WriteString(text[:len(text)-len(rest)-1])
				}
				dropped = true
			}
		} else {
			if dropped {
				if kept > 0 {
					sb.WriteByte('\n')
				}
				sb.WriteString(line)
			}
			kept++
		}
		if !more {
			break
		}
		rest = tail
	}
	if !dropped {
		return text
	}
	return sb.String()
}

// pyIsSpace reports whether r is white space for Python's str.strip and
// str.isspace: Go's unicode.IsSpace plus the separators U+001C..U+001F.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1C && r <= 0x1F
}

// pyStrip trims Python white space from both ends of s.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }
