package accesslog

import "bytes"

// Detect names the format of a log from a sample of its first lines: the
// format most of the non-blank lines parse in (Cloudflare's when JSON
// objects carry its field names, the guard's decision log when they carry
// its "outcome" and "would"; combined before common, as combined lines
// parse as common too). It returns Auto when no line parses. One line is
// enough a sample.
func Detect(lines [][]byte) Format {
	var votes [numFormats]int
	var e Entry
	// Each parser made when a line needs it: a format is detected line by
	// line until one parses, and lines of no format must not cost four
	// parsers each.
	var made [numFormats]*Parser
	parsers := func(f Format) *Parser {
		if made[f] == nil {
			made[f], _ = NewParser(f, nil)
		}
		return made[f]
	}
	for _, line := range lines {
		line = trimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '{' {
			if bytes.Contains(line, []byte(`"outcome":`)) && bytes.Contains(line, []byte(`"would":`)) {
				if parsers(Guard).Parse(line, &e) == nil {
					votes[Guard]++
				}
				continue
			}
			if bytes.Contains(line, []byte(`"ClientRequestURI"`)) || bytes.Contains(line, []byte(`"ClientRequestUserAgent"`)) || bytes.Contains(line, []byte(`"ClientIP"`)) {
				if parsers(Cloudflare).Parse(line, &e) == nil {
					votes[Cloudflare]++
				}
				continue
			}
			if parsers(JSON).Parse(line, &e) == nil {
				votes[JSON]++
			}
			continue
		}
		if parsers(Combined).Parse(line, &e) == nil && len(e.UserAgent) > 0 {
			votes[Combined]++
		} else if parsers(Common).Parse(line, &e) == nil {
			votes[Common]++
		}
	}
	best := Auto
	for f := Combined; f < numFormats; f++ {
		if votes[f] > votes[best] {
			best = f
		}
	}
	return best
}
