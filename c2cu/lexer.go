package c2cu

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a parse or check error: "FILE:LINE: what is not supported".
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString // string or character literal: only tolerated inside main
	tPunct
	tDirective // a whole preprocessor line, text after '#'
)

type token struct {
	kind     tokKind
	text     string
	line     int
	pos, end int // byte offsets, to tell `F(` from `F (` in #define
}

// puncts is ordered longest first so that the lexer takes the longest match.
var puncts = []string{
	">>=", "<<=", "...",
	"++", "--", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}",
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }

// lex splits src into tokens. Preprocessor lines become one tDirective token
// each; line is the 1-based line of the token's first byte.
func lex(file string, src []byte, firstLine int) ([]token, error) {
	var toks []token
	line := firstLine
	bol := true // only blanks seen since the last newline
	fail := func(format string, a ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			bol = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '\\':
			return nil, fail("not supported: backslash line continuation")
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				if src[j] == '\n' {
					line++
				}
				j++
			}
			if j+1 >= len(src) {
				return nil, fail("not supported: unterminated comment")
			}
			i = j + 2
			continue
		case c == '#' && bol:
			j := i + 1
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
					return nil, fail("not supported: backslash line continuation")
				}
				j++
			}
			toks = append(toks, token{kind: tDirective, text: string(src[i+1 : j]), line: line, pos: i, end: j})
			i = j
			continue
		}
		bol = false
		start := i
		switch {
		case isIdentStart(c):
			for i < len(src) && isIdentChar(src[i]) {
				i++
			}
			toks = append(toks, token{kind: tIdent, text: string(src[start:i]), line: line, pos: start, end: i})
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			for i < len(src) {
				d := src[i]
				if isIdentChar(d) || d == '.' {
					i++
				} else if (d == '+' || d == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && !strings.HasPrefix(strings.ToLower(string(src[start:i])), "0x") {
					i++
				} else {
					break
				}
			}
			text := string(src[start:i])
			kind, err := classifyNumber(text)
			if err != nil {
				return nil, fail("not supported: number %q: %v", text, err)
			}
			toks = append(toks, token{kind: kind, text: text, line: line, pos: start, end: i})
		case c == '"' || c == '\'':
			i++
			for i < len(src) && src[i] != c && src[i] != '\n' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(src) || src[i] != c {
				return nil, fail("not supported: unterminated literal")
			}
			i++
			toks = append(toks, token{kind: tString, text: string(src[start:i]), line: line, pos: start, end: i})
		default:
			matched := ""
			for _, p := range puncts {
				if strings.HasPrefix(string(src[i:min(i+3, len(src))]), p) {
					matched = p
					break
				}
			}
			if matched == "" {
				return nil, fail("not supported: character %q", c)
			}
			i += len(matched)
			toks = append(toks, token{kind: tPunct, text: matched, line: line, pos: start, end: i})
		}
	}
	toks = append(toks, token{kind: tEOF, line: line, pos: len(src), end: len(src)})
	return toks, nil
}

// classifyNumber accepts C integer literals (decimal, octal, hex with u/l
// suffixes) and decimal floating literals (optional f suffix), the forms whose
// meaning is the same in C, C++ and CUDA.
func classifyNumber(text string) (tokKind, error) {
	low := strings.ToLower(text)
	if strings.HasPrefix(low, "0x") {
		body := strings.TrimRight(low[2:], "ul")
		if !validIntSuffix(low[2+len(body):]) {
			return 0, fmt.Errorf("bad suffix")
		}
		if _, err := strconv.ParseUint(body, 16, 64); err != nil {
			return 0, fmt.Errorf("bad hexadecimal literal")
		}
		return tInt, nil
	}
	if strings.ContainsAny(low, ".e") {
		body := strings.TrimSuffix(low, "f")
		if strings.ContainsAny(body, "_xpl") || strings.Contains(body, "inf") || strings.Contains(body, "nan") {
			return 0, fmt.Errorf("bad floating literal")
		}
		if _, err := strconv.ParseFloat(body, 64); err != nil {
			return 0, fmt.Errorf("bad floating literal")
		}
		return tFloat, nil
	}
	body := strings.TrimRight(low, "ul")
	if !validIntSuffix(low[len(body):]) {
		return 0, fmt.Errorf("bad suffix")
	}
	base := 10
	if len(body) > 1 && body[0] == '0' {
		base = 8
	}
	if _, err := strconv.ParseUint(body, base, 64); err != nil {
		return 0, fmt.Errorf("bad integer literal")
	}
	return tInt, nil
}

func validIntSuffix(s string) bool {
	switch s {
	case "", "u", "l", "ul", "lu", "ll", "ull", "llu":
		return true
	}
	return false
}
