package graph

import (
	"bytes"
	"errors"
	"fmt"
)

// dictWeight finds key in data, an edge's attributes as NetworkX's
// write_edgelist writes them: the repr of a Python dict, "{}" or
// "{'weight': 4, 'color': 'red'}". It returns the entry's value as written
// (a number literal, unwrapped from a NumPy scalar's repr such as
// "np.float64(4.0)") and whether the key is there. Other entries are
// skipped whatever their values (strings, lists, nested dicts); anything
// after the closing brace, an unclosed string or bracket, or a value for
// key that is not a number is an error.
func dictWeight(data []byte, key string) (value []byte, found bool, err error) {
	p := dictParser{s: data}
	if !p.eat('{') {
		return nil, false, errors.New("want a dict {...}")
	}
	if p.eat('}') {
		return nil, false, p.end()
	}
	for {
		k, isString, err := p.value()
		if err != nil {
			return nil, false, err
		}
		if !p.eat(':') {
			return nil, false, errors.New("want ':' after a key")
		}
		vStart := p.skipBlanks()
		v, _, err := p.value()
		if err != nil {
			return nil, false, err
		}
		if isString && string(k) == key {
			if found {
				return nil, false, fmt.Errorf("key %q twice", key)
			}
			value, found = numberValue(v), true
			if value == nil {
				return nil, false, fmt.Errorf("%q is %s, not a number", key, clip(data[vStart:p.i]))
			}
		}
		if p.eat(',') {
			if p.eat('}') { // a trailing comma, as Python allows
				return value, found, p.end()
			}
			continue
		}
		if p.eat('}') {
			return value, found, p.end()
		}
		return nil, false, errors.New("want ',' or '}' after a value")
	}
}

// numberValue returns v if it is a number literal, or the literal inside a
// NumPy scalar's repr ("np.float64(4.0)", "numpy.int64(3)"), else nil.
func numberValue(v []byte) []byte {
	if i := bytes.IndexByte(v, '('); i > 0 && v[len(v)-1] == ')' {
		name := v[:i]
		if bytes.HasPrefix(name, []byte("np.")) || bytes.HasPrefix(name, []byte("numpy.")) {
			v = bytes.TrimSpace(v[i+1 : len(v)-1])
		}
	}
	if len(v) == 0 {
		return nil
	}
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E' ||
			c == 'i' || c == 'n' || c == 'f' || c == 'a' || c == 'x' || c == 'p') {
			return nil
		}
	}
	return v
}

// dictParser scans the repr of a Python dict.
type dictParser struct {
	s []byte
	i int
}

func (p *dictParser) skipBlanks() int {
	for p.i < len(p.s) && isBlank(p.s[p.i]) {
		p.i++
	}
	return p.i
}

// eat consumes c, after blanks, if it comes next.
func (p *dictParser) eat(c byte) bool {
	p.skipBlanks()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// end refuses anything but blanks after the dict.
func (p *dictParser) end() error {
	if p.skipBlanks() != len(p.s) {
		return fmt.Errorf("text after the dict: %s", quote(p.s[p.i:]))
	}
	return nil
}

// value scans one value: a quoted string (returned without its quotes,
// escapes left as written; isString true), a bracketed value ((...), [...],
// {...}, returned whole), or a bare token such as a number, True or
// np.float64(4.0) (a call's parentheses included).
func (p *dictParser) value() (v []byte, isString bool, err error) {
	start := p.skipBlanks()
	if p.i == len(p.s) {
		return nil, false, errors.New("missing value")
	}
	switch c := p.s[p.i]; c {
	case '\'', '"':
		if err := p.skipString(); err != nil {
			return nil, false, err
		}
		return p.s[start+1 : p.i-1], true, nil
	case '(', '[', '{':
		if err := p.skipNested(); err != nil {
			return nil, false, err
		}
		return p.s[start:p.i], false, nil
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == ',' || c == ':' || c == '}' || isBlank(c) {
			break
		}
		if c == '(' { // a call: np.float64(4.0)
			if err := p.skipNested(); err != nil {
				return nil, false, err
			}
			continue
		}
		p.i++
	}
	if p.i == start {
		return nil, false, fmt.Errorf("unexpected %q", p.s[p.i])
	}
	return p.s[start:p.i], false, nil
}

// skipString skips a string literal quoted by the byte at p.i.
func (p *dictParser) skipString() error {
	q := p.s[p.i]
	for p.i++; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '\\':
			p.i++
		case q:
			p.i++
			return nil
		}
	}
	return errors.New("unclosed string")
}

// skipNested skips a bracketed value starting at p.i, strings inside
// included.
func (p *dictParser) skipNested() error {
	depth := 0
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				p.i++
				return nil
			}
		case '\'', '"':
			if err := p.skipString(); err != nil {
				return err
			}
			continue
		}
		p.i++
	}
	return errors.New("unclosed bracket")
}
