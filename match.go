package robotstxt

import "strings"

// globMatch reports whether pat matches path. In pat, '*' matches any run of
// bytes (including none); when anchored, pat ends with a '$' that ties the
// match to the end of path. Every other byte is literal, '$' included.
//
// The pattern is split at its '*'s into literal segments. The first segment
// must start path; every later segment is found at its leftmost place after
// the previous one (taking the leftmost place never loses a match, since it
// leaves the most room for what follows); an anchored last segment must end
// path. Each segment is searched once, left to right, so the time is linear
// in len(path)+len(pat): no backtracking.
func globMatch(path, pat string, anchored bool) bool {
	if anchored {
		pat = pat[:len(pat)-1]
	}
	return globMatchBody(path, pat, anchored)
}

// globMatchBody is globMatch for a pattern given without its final '$':
// anchored ties the match to the end of path.
func globMatchBody(path, pat string, anchored bool) bool {
	star := strings.IndexByte(pat, '*')
	if star < 0 {
		if anchored {
			return path == pat
		}
		return strings.HasPrefix(path, pat)
	}
	if !strings.HasPrefix(path, pat[:star]) {
		return false
	}
	path, pat = path[star:], pat[star+1:]
	for {
		star = strings.IndexByte(pat, '*')
		if star < 0 {
			// The last segment.
			if anchored {
				return strings.HasSuffix(path, pat)
			}
			return strings.Contains(path, pat)
		}
		if seg := pat[:star]; seg != "" {
			i := strings.Index(path, seg)
			if i < 0 {
				return false
			}
			path = path[i+len(seg):]
		}
		pat = pat[star+1:]
	}
}
