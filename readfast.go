package robotstxt

import (
	"strings"
)

// lineSpace marks the white space a line can hold (isSpace without the
// line endings).
var lineSpace = [256]bool{' ': true, '\t': true, '\v': true, '\f': true}

// The words readFast recognises keys by: the folded first eight bytes of a
// line's key, masked to the name's length.
const (
	mask5 = 1<<40 - 1
	mask7 = 1<<56 - 1
)

// readFast reads a body in the google reading, for a body with no NUL
// byte: the same lines as the lexer, with the same results, in one pass
// that looks at most bytes once. The lines most files are made of
// (user-agent, allow, disallow and sitemap lines written the usual way,
// empty lines and comments) are read here; any other line (a typo, a key
// without its colon, an extension field, an over-long line) is handed to
// classifyHash, as the lexer does with every line.
func (b *builder) readFast(body string) {
	n := len(body)
	pos := 0
	const bom = "\xEF\xBB\xBF"
	for pos < len(bom) && pos < n && body[pos] == bom[pos] {
		pos++
	}
	num := int32(0)
	for {
		num++
		start := pos
		i := pos
		for i < n && lineSpace[body[i]] {
			i++
		}
		j := i // the end of the line, once known
		switch {
		case i == n || body[i] == '\n' || body[i] == '\r':
			// An empty line.
			if b.draft {
				b.cur = -1
			}
			goto next
		case body[i] == '#':
			// A comment: nothing to read.
			j = indexLineEnd(body, j)
			goto next
		}
		if i+8 <= n {
			w := fold8(le64At(body, i))
			var field Field
			k := 0
			switch {
			case w == wordDisallow:
				field, k = FieldDisallow, 8
			case w&mask5 == wordAllow:
				field, k = FieldAllow, 5
			case w == wordUserAge && i+10 <= n && body[i+8]|0x20 == 'n' && body[i+9]|0x20 == 't':
				field, k = FieldUserAgent, 10
			case w&mask7 == wordSitemap:
				field, k = FieldSitemap, 7
			}
			if k > 0 {
				j = i + k
				for j < n && lineSpace[body[j]] {
					j++
				}
				if j < n && body[j] == ':' {
					j++
					colon := j
					for j < n && lineSpace[body[j]] {
						j++
					}
					vs := j
					j = indexValueEnd(body, j)
					ve := j
					if j < n && body[j] == '#' {
						j = indexLineEnd(body, j)
					}
					if j-start <= maxLineLen {
						for ve > vs && lineSpace[body[ve-1]] {
							ve--
						}
						if ve == vs {
							vs, ve = colon, colon // where the lexer places an empty value
						}
						switch field {
						case FieldDisallow, FieldAllow:
							b.rule(num, vs, ve-vs, field == FieldAllow)
						case FieldUserAgent:
							b.agent(num, vs, body[vs:ve])
						default:
							b.c.ext.addSitemapAt(num, vs, ve-vs)
						}
						goto next
					}
				}
			}
		}
		// Any other line: read it as the lexer does.
		j = indexLineEnd(body, j)
		{
			raw := body[start:j]
			ln := classifyHash(raw, readGoogleNoNUL, strings.IndexByte(raw, '#'))
			ln.num, ln.start, ln.end = int(num), start, j
			b.line(&ln)
		}
	next:
		if j == n {
			return
		}
		pos = j + 1
		if body[j] == '\r' && pos < n && body[pos] == '\n' {
			pos++
		}
	}
}
