// Package npy writes NumPy .npy arrays (format version 1.0), so that
// numpy.load reads apsp's distance matrices directly.
package npy

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Dtype is a NumPy element type.
type Dtype string

// The element types apsp writes, little-endian (one byte has no order:
// NumPy writes "|u1").
const (
	Uint8   Dtype = "|u1"
	Int16   Dtype = "<i2"
	Uint16  Dtype = "<u2"
	Int32   Dtype = "<i4"
	Int64   Dtype = "<i8"
	Float32 Dtype = "<f4"
	Float64 Dtype = "<f8"
)

// Size returns the bytes of one element.
func (d Dtype) Size() int {
	switch d {
	case Uint8:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Float32:
		return 4
	}
	return 8
}

// IsInt says whether d is an integer type.
func (d Dtype) IsInt() bool {
	switch d {
	case Uint8, Int16, Uint16, Int32, Int64:
		return true
	}
	return false
}

// Header returns the .npy header of a C-ordered rows×cols array.
func Header(d Dtype, rows, cols int) []byte {
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }", d, rows, cols)
	// Magic (6) + version (2) + length (2) + dict + padding + '\n' is a
	// multiple of 64, as the format asks.
	total := 10 + len(dict) + 1
	pad := (64 - total%64) % 64
	dict += strings.Repeat(" ", pad) + "\n"
	h := make([]byte, 0, 10+len(dict))
	h = append(h, "\x93NUMPY\x01\x00"...)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(dict)))
	return append(h, dict...)
}

// Writer writes one rows×cols matrix, row by row.
type Writer struct {
	bw   *bufio.Writer
	d    Dtype
	cols int
	buf  []byte
}

// NewWriter writes the header and returns a Writer for the rows.
func NewWriter(w io.Writer, d Dtype, rows, cols int) (*Writer, error) {
	switch d {
	case Uint8, Int16, Uint16, Int32, Int64, Float32, Float64:
	default:
		return nil, fmt.Errorf("npy: cannot write dtype %q", d)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.Write(Header(d, rows, cols)); err != nil {
		return nil, err
	}
	return &Writer{bw: bw, d: d, cols: cols, buf: make([]byte, 0, cols*d.Size())}, nil
}

// WriteIntRow writes one row of an integer matrix (an integer Dtype),
// converting each value to the element type; the caller checks that they
// fit.
func (w *Writer) WriteIntRow(row []int64) error {
	if len(row) != w.cols {
		return fmt.Errorf("npy: row of %d values, want %d", len(row), w.cols)
	}
	b, err := AppendIntRow(w.buf[:0], w.d, row)
	if err != nil {
		return err
	}
	_, err = w.bw.Write(b)
	return err
}

// WriteFloatRow writes one row of a float matrix (Float64, or Float32 with
// each value rounded to the nearest float32).
func (w *Writer) WriteFloatRow(row []float64) error {
	if len(row) != w.cols {
		return fmt.Errorf("npy: row of %d values, want %d", len(row), w.cols)
	}
	b, err := AppendFloatRow(w.buf[:0], w.d, row)
	if err != nil {
		return err
	}
	_, err = w.bw.Write(b)
	return err
}

// AppendIntRow appends the elements of row in integer dtype d to b, for
// writers that encode rows in parallel after Header. Each value is
// truncated to the element type: the caller checks that they fit.
func AppendIntRow(b []byte, d Dtype, row []int64) ([]byte, error) {
	at := len(b)
	b = slices.Grow(b, len(row)*d.Size())[:at+len(row)*d.Size()]
	c := b[at:]
	switch d {
	case Uint8:
		for i, x := range row {
			c[i] = uint8(x)
		}
	case Int16, Uint16:
		for i, x := range row {
			binary.LittleEndian.PutUint16(c[2*i:], uint16(x))
		}
	case Int32:
		for i, x := range row {
			binary.LittleEndian.PutUint32(c[4*i:], uint32(int32(x)))
		}
	case Int64:
		for i, x := range row {
			binary.LittleEndian.PutUint64(c[8*i:], uint64(x))
		}
	default:
		return b[:at], fmt.Errorf("npy: integer row for dtype %s", d)
	}
	return b, nil
}

// AppendFloatRow appends the elements of row in dtype d (Float64, or
// Float32 rounding each to the nearest float32) to b.
func AppendFloatRow(b []byte, d Dtype, row []float64) ([]byte, error) {
	at := len(b)
	b = slices.Grow(b, len(row)*d.Size())[:at+len(row)*d.Size()]
	c := b[at:]
	switch d {
	case Float32:
		for i, x := range row {
			binary.LittleEndian.PutUint32(c[4*i:], math.Float32bits(float32(x)))
		}
	case Float64:
		for i, x := range row {
			binary.LittleEndian.PutUint64(c[8*i:], math.Float64bits(x))
		}
	default:
		return b[:at], fmt.Errorf("npy: float row for dtype %s", d)
	}
	return b, nil
}

// Flush writes any buffered data.
func (w *Writer) Flush() error { return w.bw.Flush() }
