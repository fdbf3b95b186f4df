package serve

import (
	"bytes"
	"encoding/binary"
)

// A graph's base64 fields are most of a large request (87 KB of a
// 1 024-vertex, 16-regular graph's line), and encoding/json scans every
// byte of a string value several times. liftB64 takes them out of the
// line first, with a scan of the top-level object that looks only for
// quotes and brackets, so the decoder reads a short line; the base64
// bytes are then decoded directly.

// liftB64 returns line with the values of its top-level "edges_b64" and
// "weights_b64" keys replaced by "", and those values' bytes (nil where
// absent). A value is lifted only when it is a string without escapes,
// as base64 is; a line the scan cannot follow exactly (not an object, a
// key given twice) is returned as it is, for the decoder to read whole
// and to say what is wrong.
func liftB64(line []byte) (rest, edges, weights []byte) {
	type span struct{ lo, hi int } // a value's bytes, quotes excluded
	var found [2]*span
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return line, nil, nil
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return line, nil, nil
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return line, nil, nil
		}
		end := stringEnd(line, i)
		if end < 0 {
			return line, nil, nil
		}
		key := line[i+1 : end]
		if bytes.IndexByte(key, '\\') >= 0 {
			// An escaped key ("edges\u005fb64") is a key the decoder
			// unescapes: which one, only it can say.
			return line, nil, nil
		}
		i = skipSpace(line, end+1)
		if i >= len(line) || line[i] != ':' {
			return line, nil, nil
		}
		i = skipSpace(line, i+1)
		// encoding/json matches keys without regard to case: so does
		// the lift, so that "Edges_B64" and "edges_b64" count as the
		// same key given twice.
		which := -1
		switch {
		case bytes.EqualFold(key, []byte("edges_b64")):
			which = 0
		case bytes.EqualFold(key, []byte("weights_b64")):
			which = 1
		}
		start := i
		i = valueEnd(line, i)
		if i < 0 {
			return line, nil, nil
		}
		if which >= 0 {
			if found[which] != nil {
				return line, nil, nil // twice: the decoder says so
			}
			// Only a non-empty string JSON reads as its bytes: anything
			// else (an escape, a control character, non-ASCII, "") is
			// the decoder's to read, and to refuse.
			if line[start] == '"' && i-1 > start+1 && plainString(line[start+1:i-1]) {
				found[which] = &span{start + 1, i - 1}
			}
		}
		i = skipSpace(line, i)
		if i >= len(line) {
			return line, nil, nil
		}
		if line[i] == '}' {
			if skipSpace(line, i+1) != len(line) {
				return line, nil, nil
			}
			break
		}
		if line[i] != ',' {
			return line, nil, nil
		}
		i = skipSpace(line, i+1)
	}
	if found[0] == nil && found[1] == nil {
		return line, nil, nil
	}
	// Cut the lifted values out, in order, leaving "" in their place.
	var out []byte
	at := 0
	lifted := [2][]byte{}
	order := []int{0, 1}
	if found[0] != nil && found[1] != nil && found[1].lo < found[0].lo {
		order = []int{1, 0}
	}
	for _, k := range order {
		if sp := found[k]; sp != nil {
			out = append(out, line[at:sp.lo]...)
			lifted[k] = line[sp.lo:sp.hi:sp.hi]
			at = sp.hi
		}
	}
	out = append(out, line[at:]...)
	return out, lifted[0], lifted[1]
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index of the quote that closes the string opening at
// b[i], or -1. It looks for the next quote, then for escapes before it
// (an escaped quote sends it on): each byte is looked at a bounded number
// of times, by bytes.IndexByte.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		end := j + q
		k := j
		for {
			e := bytes.IndexByte(b[k:end], '\\')
			if e < 0 {
				return end
			}
			k += e + 2 // an escape and the character it escapes
			if k > end {
				break // the quote at end was escaped
			}
		}
		j = k
	}
	return -1
}

// valueEnd is the index just past the value starting at b[i], or -1: a
// string, an object or array (brackets counted, strings skipped), or a
// bare word (number, true, false, null) up to the next delimiter. The
// decoder checks what the value is.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end := stringEnd(b, i)
		if end < 0 {
			return -1
		}
		return end + 1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := stringEnd(b, j)
				if end < 0 {
					return -1
				}
				j = end
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// plainString reports whether b, a JSON string's bytes between its
// quotes, is read by encoding/json as exactly those bytes: printable
// ASCII without a backslash (no escape, no control character, no UTF-8
// for the decoder to check). base64's decoder then checks the
// characters; it is asked only about a value JSON would hand it as is.
// Eight bytes a step: this runs over every base64 byte of a request.
func plainString(b []byte) bool {
	if bytes.IndexByte(b, '\\') >= 0 {
		return false
	}
	const highs, space = 0x8080808080808080, 0x2020202020202020
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A byte >= 0x80, or one < 0x20 (the borrow of w - 0x20 in each
		// byte sets a high bit that w itself does not have).
		if w&highs != 0 || (w-space)&^w&highs != 0 {
			return false
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 || b[i] >= 0x80 {
			return false
		}
	}
	return true
}
