package encode

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apsp/apsp/internal/npy"
)

// Dtype is the element type of a .npy distance matrix.
type Dtype string

// The dtypes NPY writes (little-endian). Auto asks for the default: the
// narrowest exact integer type, float64 for float distances.
const (
	Auto    Dtype = ""
	Uint8   Dtype = "uint8"
	Int16   Dtype = "int16"
	Uint16  Dtype = "uint16"
	Int32   Dtype = "int32"
	Int64   Dtype = "int64"
	Float32 Dtype = "float32"
	Float64 Dtype = "float64"
)

// intDtypes are the integer dtypes from the narrowest, as Auto tries
// them: unsigned before signed of one width, so that non-negative
// distances (hop counts) take the unsigned type's whole range.
var intDtypes = []struct {
	dt      Dtype
	nd      npy.Dtype
	lo, max int64 // max is the unreachable sentinel, never a distance
}{
	{Uint8, npy.Uint8, 0, math.MaxUint8},
	{Uint16, npy.Uint16, 0, math.MaxUint16},
	{Int16, npy.Int16, math.MinInt16, math.MaxInt16},
	{Int32, npy.Int32, math.MinInt32, math.MaxInt32},
	{Int64, npy.Int64, math.MinInt64, math.MaxInt64},
}

// intRange returns the least value and the maximum (the unreachable
// sentinel) of an integer dtype; ok is false for any other.
func intRange(dt Dtype) (lo, max int64, ok bool) {
	for _, it := range intDtypes {
		if it.dt == dt {
			return it.lo, it.max, true
		}
	}
	return 0, 0, false
}

// ErrDtype is wrapped by the errors that refuse a dtype for a matrix.
var ErrDtype = errors.New("dtype cannot hold the distances")

// dtypeError says why a dtype was refused; it wraps ErrDtype.
type dtypeError struct{ msg string }

func (e *dtypeError) Error() string { return e.msg }
func (e *dtypeError) Unwrap() error { return ErrDtype }

func refusef(format string, args ...any) error {
	return &dtypeError{fmt.Sprintf(format, args...)}
}

// DtypeNames lists the dtypes ParseDtype takes, for usage text.
const DtypeNames = "uint8, int16, uint16, int32, int64, float32, float64 or auto"

// ParseDtype returns the dtype named s: uint8, int16, uint16, int32, int64,
// float32, float64, or auto (or "") for the default.
func ParseDtype(s string) (Dtype, error) {
	switch d := Dtype(s); d {
	case Uint8, Int16, Uint16, Int32, Int64, Float32, Float64:
		return d, nil
	case Auto, "auto":
		return Auto, nil
	}
	return "", fmt.Errorf("unknown dtype %q: want %s", s, DtypeNames)
}

// npyDtype returns the .npy descr of d.
func (d Dtype) npyDtype() npy.Dtype {
	for _, it := range intDtypes {
		if it.dt == d {
			return it.nd
		}
	}
	if d == Float32 {
		return npy.Float32
	}
	return npy.Float64
}

// summary is what a pass over the matrix learns about its real distances.
type summary struct {
	exact  bool
	lo, hi int64 // exact: the least and greatest real distance, or 0
	// float distances: the largest magnitude, and the least non-zero one
	// (+Inf when none)
	maxAbs, minAbs float64
}

// Matrix is what NPY writes: Rows() rows of Cols() distances, exact
// integers or floats. *apsp.Distances (N×N) and *apsp.SourceDistances
// (an origin–destination matrix) are Matrices.
type Matrix interface {
	Rows() int
	Cols() int
	Exact() bool
	RowInt64(i int, dst []int64, unreachable int64) []int64
	RowFloat64(i int, dst []float64) []float64
}

// summarize reads every row of d once, in parallel.
func summarize(d Matrix) summary {
	parts := mapRows(d.Rows(), func(from, to int) summary { return summarizeRows(d, from, to) })
	s := parts[0]
	for _, p := range parts[1:] {
		s.lo, s.hi = min(s.lo, p.lo), max(s.hi, p.hi)
		s.maxAbs, s.minAbs = max(s.maxAbs, p.maxAbs), min(s.minAbs, p.minAbs)
	}
	return s
}

// summarizeRows summarizes rows from..to-1.
func summarizeRows(d Matrix, from, to int) summary {
	s := summary{exact: d.Exact(), lo: math.MaxInt64, hi: math.MinInt64, minAbs: math.Inf(1)}
	if s.exact {
		// Unreachable pairs read as 0, which widens [lo, hi] at most to
		// take in 0: every dtype holds 0, so the checks decide the same.
		var row []int64
		lo, hi := s.lo, s.hi
		for u := from; u < to; u++ {
			row = d.RowInt64(u, row, 0)
			for _, x := range row {
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		s.lo, s.hi = lo, hi
		return s
	}
	var row []float64
	inf := math.Inf(1)
	maxAbs, minAbs := s.maxAbs, s.minAbs
	for u := from; u < to; u++ {
		row = d.RowFloat64(u, row)
		for _, x := range row {
			if x < 0 {
				x = -x
			}
			if x > maxAbs && x != inf {
				maxAbs = x
			}
			if x < minAbs && x != 0 {
				minAbs = x
			}
		}
	}
	s.maxAbs, s.minAbs = maxAbs, minAbs
	return s
}

// misfit says why dt cannot hold every real distance of s exactly (float32
// on float distances: within its normal range), or "" when it can.
func (s summary) misfit(dt Dtype) string {
	if !s.exact {
		switch dt {
		case Float64:
			return ""
		case Float32:
			if math.IsInf(float64(float32(s.maxAbs)), 0) {
				return fmt.Sprintf("distance %g is beyond float32's range (use float64)", s.maxAbs)
			}
			if s.minAbs < 0x1p-126 {
				return fmt.Sprintf("distance %g is below float32's normal range (use float64)", s.minAbs)
			}
			return ""
		}
		return "the distances are floats (use float64, or float32 to round them)"
	}
	if lo, sentinel, ok := intRange(dt); ok {
		switch {
		case s.hi == sentinel:
			return fmt.Sprintf("distance %d is its maximum, which stands for unreachable", s.hi)
		case s.hi > sentinel:
			return fmt.Sprintf("distance %d is beyond what it holds exactly", s.hi)
		case s.lo < lo && lo == 0:
			return fmt.Sprintf("distance %d is negative", s.lo)
		case s.lo < lo:
			return fmt.Sprintf("distance %d is beyond what it holds exactly", s.lo)
		}
		return ""
	}
	// Floats hold the integers up to 2^mantissa bits exactly.
	bound := int64(1) << 53
	if dt == Float32 {
		bound = 1 << 24
	}
	switch {
	case s.hi > bound:
		return fmt.Sprintf("distance %d is beyond what it holds exactly", s.hi)
	case s.lo < -bound:
		return fmt.Sprintf("distance %d is beyond what it holds exactly", s.lo)
	}
	return ""
}

// check returns nil when dt holds every real distance of s exactly, else
// an error wrapping ErrDtype that names dt and the distance, and the
// narrowest dtype of the same kind that would hold them.
func (s summary) check(dt Dtype) error {
	if _, _, isInt := intRange(dt); !isInt && dt != Float32 && dt != Float64 {
		return fmt.Errorf("unknown dtype %q", dt)
	}
	why := s.misfit(dt)
	if why == "" {
		return nil
	}
	if s.exact {
		alts := []Dtype{Float64}
		if _, _, isInt := intRange(dt); isInt {
			alts = alts[:0]
			for _, it := range intDtypes {
				alts = append(alts, it.dt)
			}
		}
		for _, alt := range alts {
			if alt != dt && s.misfit(alt) == "" {
				why += fmt.Sprintf(" (use %s)", alt)
				break
			}
		}
	}
	return refusef("cannot write %s: %s", dt, why)
}

// choose resolves Auto and checks dt.
func (s summary) choose(dt Dtype) (Dtype, error) {
	if dt != Auto {
		return dt, s.check(dt)
	}
	if !s.exact {
		return Float64, nil
	}
	for _, it := range intDtypes {
		if s.misfit(it.dt) == "" {
			return it.dt, nil
		}
	}
	return "", refusef("cannot write .npy: no dtype holds distance %d exactly beside the unreachable sentinel (write TSV)", s.hi)
}

// NPYDtype returns the dtype NPY writes d in when asked for dt: the default
// for Auto, else dt itself, or an error wrapping ErrDtype when dt cannot
// hold every real distance (see the package documentation). It reads the
// whole matrix.
func NPYDtype(d Matrix, dt Dtype) (Dtype, error) {
	dt, err := ParseDtype(string(dt))
	if err != nil {
		return "", err
	}
	return summarize(d).choose(dt)
}

// NPY writes d as a Rows×Cols NumPy array (format 1.0, C order, little-endian)
// of dtype dt (Auto for the default), with the dtype's maximum for
// unreachable pairs in integer dtypes and +Inf in float ones. It first
// checks dt against every distance (NPYDtype) and writes nothing when it
// refuses it.
func NPY(w io.Writer, d Matrix, dt Dtype) error {
	dt, err := NPYDtype(d, dt)
	if err != nil {
		return err
	}
	rows, cols := d.Rows(), d.Cols()
	nd := dt.npyDtype()
	if _, err := w.Write(npy.Header(nd, rows, cols)); err != nil {
		return err
	}
	if _, unreachable, isInt := intRange(dt); isInt {
		return writeRows(w, rows, cols*nd.Size(), func() rowEncoder {
			var row []int64
			return func(lo, hi int, b []byte) []byte {
				for u := lo; u < hi; u++ {
					row = d.RowInt64(u, row, unreachable)
					b, _ = npy.AppendIntRow(b, nd, row) // nd is an integer dtype
				}
				return b
			}
		})
	}
	return writeRows(w, rows, cols*nd.Size(), func() rowEncoder {
		var row []float64
		return func(lo, hi int, b []byte) []byte {
			for u := lo; u < hi; u++ {
				row = d.RowFloat64(u, row)
				b, _ = npy.AppendFloatRow(b, nd, row) // nd is a float dtype
			}
			return b
		}
	})
}
