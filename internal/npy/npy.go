// Package npy writes NumPy .npy arrays (format version 1.0), so that
// numpy.load reads apsp's distance matrices directly.
package npy

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
)

// Dtype is a NumPy element type.
type Dtype string

// The element types apsp writes, little-endian.
const (
	Int32   Dtype = "<i4"
	Int64   Dtype = "<i8"
	Float64 Dtype = "<f8"
)

// size returns the bytes of one element.
func (d Dtype) size() int {
	if d == Int32 {
		return 4
	}
	return 8
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
	bw := bufio.NewWriterSize(w, 1<<20)
	if _, err := bw.Write(Header(d, rows, cols)); err != nil {
		return nil, err
	}
	return &Writer{bw: bw, d: d, cols: cols, buf: make([]byte, 0, cols*d.size())}, nil
}

// WriteIntRow writes one row of an integer matrix.
func (w *Writer) WriteIntRow(row []int64) error {
	if len(row) != w.cols {
		return fmt.Errorf("npy: row of %d values, want %d", len(row), w.cols)
	}
	b := w.buf[:0]
	for _, x := range row {
		if w.d == Int32 {
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(x)))
		} else {
			b = binary.LittleEndian.AppendUint64(b, uint64(x))
		}
	}
	_, err := w.bw.Write(b)
	return err
}

// WriteFloatRow writes one row of a float64 matrix.
func (w *Writer) WriteFloatRow(row []float64) error {
	if len(row) != w.cols {
		return fmt.Errorf("npy: row of %d values, want %d", len(row), w.cols)
	}
	b := w.buf[:0]
	for _, x := range row {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	_, err := w.bw.Write(b)
	return err
}

// Flush writes any buffered data.
func (w *Writer) Flush() error { return w.bw.Flush() }
