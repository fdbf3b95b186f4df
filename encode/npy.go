package encode

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/internal/npy"
)

// Dtype is the element type of a .npy distance matrix.
type Dtype string

// The dtypes NPY writes (little-endian). Auto asks for the default: the
// narrowest exact integer type, float64 for float distances.
const (
	Auto    Dtype = ""
	Int32   Dtype = "int32"
	Int64   Dtype = "int64"
	Float32 Dtype = "float32"
	Float64 Dtype = "float64"
)

// ErrDtype is wrapped by the errors that refuse a dtype for a matrix.
var ErrDtype = errors.New("dtype cannot hold the distances")

// dtypeError says why a dtype was refused; it wraps ErrDtype.
type dtypeError struct{ msg string }

func (e *dtypeError) Error() string { return e.msg }
func (e *dtypeError) Unwrap() error { return ErrDtype }

func refusef(format string, args ...any) error {
	return &dtypeError{fmt.Sprintf(format, args...)}
}

// ParseDtype returns the dtype named s: int32, int64, float32, float64, or
// auto (or "") for the default.
func ParseDtype(s string) (Dtype, error) {
	switch d := Dtype(s); d {
	case Int32, Int64, Float32, Float64:
		return d, nil
	case Auto, "auto":
		return Auto, nil
	}
	return "", fmt.Errorf("unknown dtype %q: want int32, int64, float32, float64 or auto", s)
}

// npyDtype returns the .npy descr of d.
func (d Dtype) npyDtype() npy.Dtype {
	switch d {
	case Int32:
		return npy.Int32
	case Int64:
		return npy.Int64
	case Float32:
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

// summarize reads every row of d once, in parallel.
func summarize(d *apsp.Distances) summary {
	parts := mapRows(d.N(), func(from, to int) summary { return summarizeRows(d, from, to) })
	s := parts[0]
	for _, p := range parts[1:] {
		s.lo, s.hi = min(s.lo, p.lo), max(s.hi, p.hi)
		s.maxAbs, s.minAbs = max(s.maxAbs, p.maxAbs), min(s.minAbs, p.minAbs)
	}
	return s
}

// summarizeRows summarizes rows from..to-1.
func summarizeRows(d *apsp.Distances, from, to int) summary {
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

// check returns nil when dt holds every real distance of s exactly (float32
// on float distances: within its normal range), else an error wrapping
// ErrDtype.
func (s summary) check(dt Dtype) error {
	refuse := func(format string, args ...any) error {
		return refusef("cannot write %s: %s", dt, fmt.Sprintf(format, args...))
	}
	if !s.exact {
		switch dt {
		case Float64:
			return nil
		case Float32:
			if math.IsInf(float64(float32(s.maxAbs)), 0) {
				return refuse("distance %g is beyond float32's range (use float64)", s.maxAbs)
			}
			if s.minAbs < 0x1p-126 {
				return refuse("distance %g is below float32's normal range (use float64)", s.minAbs)
			}
			return nil
		}
		return refuse("the distances are floats (use float64, or float32 to round them)")
	}
	var lo, hi int64 // what dt holds exactly (integer dtypes: hi+1 is unreachable)
	var wider Dtype
	switch dt {
	case Int32:
		lo, hi, wider = math.MinInt32, math.MaxInt32-1, Int64
	case Int64:
		lo, hi = math.MinInt64, math.MaxInt64-1
	case Float32:
		lo, hi, wider = -1<<24, 1<<24, Float64
	case Float64:
		lo, hi = -1<<53, 1<<53
	default:
		return fmt.Errorf("unknown dtype %q", dt)
	}
	use := ""
	if wider != "" && s.check(wider) == nil {
		use = fmt.Sprintf(" (use %s)", wider)
	}
	switch {
	case (dt == Int32 || dt == Int64) && s.hi == hi+1:
		return refuse("distance %d is its maximum, which stands for unreachable%s", s.hi, use)
	case s.hi > hi:
		return refuse("distance %d is beyond what it holds exactly%s", s.hi, use)
	case s.lo < lo:
		return refuse("distance %d is beyond what it holds exactly%s", s.lo, use)
	}
	return nil
}

// choose resolves Auto and checks dt.
func (s summary) choose(dt Dtype) (Dtype, error) {
	if dt != Auto {
		return dt, s.check(dt)
	}
	if !s.exact {
		return Float64, nil
	}
	if s.check(Int32) == nil {
		return Int32, nil
	}
	if err := s.check(Int64); err != nil {
		return "", refusef("cannot write .npy: no dtype holds distance %d exactly beside the unreachable sentinel (write TSV)", s.hi)
	}
	return Int64, nil
}

// NPYDtype returns the dtype NPY writes d in when asked for dt: the default
// for Auto, else dt itself, or an error wrapping ErrDtype when dt cannot
// hold every real distance (see the package documentation). It reads the
// whole matrix.
func NPYDtype(d *apsp.Distances, dt Dtype) (Dtype, error) {
	dt, err := ParseDtype(string(dt))
	if err != nil {
		return "", err
	}
	return summarize(d).choose(dt)
}

// NPY writes d as an N×N NumPy array (format 1.0, C order, little-endian)
// of dtype dt (Auto for the default), with the dtype's maximum for
// unreachable pairs in integer dtypes and +Inf in float ones. It first
// checks dt against every distance (NPYDtype) and writes nothing when it
// refuses it.
func NPY(w io.Writer, d *apsp.Distances, dt Dtype) error {
	dt, err := NPYDtype(d, dt)
	if err != nil {
		return err
	}
	n := d.N()
	nd := dt.npyDtype()
	if _, err := w.Write(npy.Header(nd, n, n)); err != nil {
		return err
	}
	if dt == Int32 || dt == Int64 {
		unreachable := int64(math.MaxInt64)
		if dt == Int32 {
			unreachable = math.MaxInt32
		}
		return writeRows(w, n, n*nd.Size(), func() rowEncoder {
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
	return writeRows(w, n, n*nd.Size(), func() rowEncoder {
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
