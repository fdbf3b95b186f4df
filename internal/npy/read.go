package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Array is a dense little-endian array read from a .npy file.
type Array struct {
	Descr string // e.g. "<i4", "<f8"
	Shape []int
	Data  []byte // C order
}

var (
	descrRe = regexp.MustCompile(`'descr':\s*'([^']*)'`)
	orderRe = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
	shapeRe = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
)

// Read parses a version 1.0/2.0/3.0 .npy stream (C order, little-endian
// or byte-sized elements).
func Read(r io.Reader) (*Array, error) {
	var magic [8]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, fmt.Errorf("npy: %w", err)
	}
	if !bytes.Equal(magic[:6], []byte("\x93NUMPY")) {
		return nil, errors.New("npy: not a .npy file (bad magic)")
	}
	var hlen int
	switch magic[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("npy: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("npy: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf("npy: unsupported version %d", magic[6])
	}
	if hlen > 1<<20 {
		return nil, fmt.Errorf("npy: header of %d bytes", hlen)
	}
	h := make([]byte, hlen)
	if _, err := io.ReadFull(r, h); err != nil {
		return nil, fmt.Errorf("npy: header: %w", err)
	}
	header := string(h)
	a := &Array{}
	m := descrRe.FindStringSubmatch(header)
	if m == nil {
		return nil, fmt.Errorf("npy: header without descr: %q", header)
	}
	a.Descr = m[1]
	if o := orderRe.FindStringSubmatch(header); o != nil && o[1] == "True" {
		return nil, errors.New("npy: Fortran-ordered arrays are not supported (save with order='C')")
	}
	if strings.HasPrefix(a.Descr, ">") {
		return nil, fmt.Errorf("npy: big-endian dtype %s is not supported", a.Descr)
	}
	s := shapeRe.FindStringSubmatch(header)
	if s == nil {
		return nil, fmt.Errorf("npy: header without shape: %q", header)
	}
	elems := 1
	for _, f := range strings.Split(s[1], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 || (d > 0 && elems > (1<<40)/d) {
			return nil, fmt.Errorf("npy: bad shape %q", s[1])
		}
		a.Shape = append(a.Shape, d)
		elems *= d
	}
	size, err := DescrSize(a.Descr)
	if err != nil {
		return nil, err
	}
	a.Data = make([]byte, elems*size)
	if _, err := io.ReadFull(r, a.Data); err != nil {
		return nil, fmt.Errorf("npy: data: %w", err)
	}
	return a, nil
}

// DescrSize returns the element size of a dtype descr such as "<i4".
func DescrSize(descr string) (int, error) {
	d := strings.TrimLeft(descr, "<|=")
	if len(d) < 2 {
		return 0, fmt.Errorf("npy: unsupported dtype %q", descr)
	}
	n, err := strconv.Atoi(d[1:])
	if err != nil || n <= 0 || n > 16 {
		return 0, fmt.Errorf("npy: unsupported dtype %q", descr)
	}
	return n, nil
}

// WriteBytes writes raw C-ordered data with the given descr and shape.
func WriteBytes(w io.Writer, descr string, shape []int, data []byte) error {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	sh := strings.Join(parts, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, sh)
	total := 10 + len(dict) + 1
	dict += strings.Repeat(" ", (64-total%64)%64) + "\n"
	h := append([]byte("\x93NUMPY\x01\x00"), 0, 0)
	binary.LittleEndian.PutUint16(h[8:], uint16(len(dict)))
	if _, err := w.Write(append(h, dict...)); err != nil {
		return err
	}
	_, err := w.Write(data)
	return err
}
