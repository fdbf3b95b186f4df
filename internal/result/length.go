package result

import (
	"encoding/json"
	"math"
	"strconv"
)

// Length is a path length: an exact integer for graphs without float
// weights, a float64 otherwise, or infinite when there is no path.
type Length struct {
	i       int64
	f       float64
	isFloat bool
	inf     bool
}

// IntLength returns the exact integer length v.
func IntLength(v int64) Length { return Length{i: v, f: float64(v)} }

// FloatLength returns the float length v (+Inf means no path).
func FloatLength(v float64) Length {
	return Length{f: v, isFloat: true, inf: math.IsInf(v, 1)}
}

// Infinite returns the length of a missing path.
func Infinite(isFloat bool) Length { return Length{f: math.Inf(1), isFloat: isFloat, inf: true} }

// IsInf reports whether there is no path.
func (l Length) IsInf() bool { return l.inf }

// IsFloat reports whether the length came from float weights.
func (l Length) IsFloat() bool { return l.isFloat }

// Int returns the integer length; it is meaningful only when !IsFloat() and
// !IsInf().
func (l Length) Int() int64 { return l.i }

// Float returns the length as a float64 (+Inf when there is no path).
func (l Length) Float() float64 { return l.f }

// String returns the length in decimal, or "inf".
func (l Length) String() string { return string(l.Append(nil)) }

// Append appends the length as String writes it, without allocating.
func (l Length) Append(b []byte) []byte {
	switch {
	case l.inf:
		return append(b, "inf"...)
	case l.isFloat:
		return strconv.AppendFloat(b, l.f, 'g', -1, 64)
	}
	return strconv.AppendInt(b, l.i, 10)
}

// MarshalJSON writes the number, or null when infinite.
func (l Length) MarshalJSON() ([]byte, error) {
	if l.inf {
		return []byte("null"), nil
	}
	return []byte(l.String()), nil
}

// UnmarshalJSON reads a number or null.
func (l *Length) UnmarshalJSON(b []byte) error {
	var n *json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	if n == nil {
		*l = Infinite(false)
		return nil
	}
	if i, err := n.Int64(); err == nil {
		*l = IntLength(i)
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		return err
	}
	*l = FloatLength(f)
	return nil
}

// Less orders lengths with infinity last; a float and an integer length
// compare as float64.
func (l Length) Less(m Length) bool {
	switch {
	case l.inf:
		return false
	case m.inf:
		return true
	case l.isFloat || m.isFloat:
		return l.f < m.f
	}
	return l.i < m.i
}

// Mean is an average length such as the ASPL; it marshals infinity as null.
type Mean float64

// IsInf reports whether the mean is infinite.
func (m Mean) IsInf() bool { return math.IsInf(float64(m), 1) }

// String returns the mean with full precision, "inf", or "nan" when it is
// undefined (no pair to average over).
func (m Mean) String() string {
	if m.IsInf() {
		return "inf"
	}
	if math.IsNaN(float64(m)) {
		return "nan"
	}
	return strconv.FormatFloat(float64(m), 'g', -1, 64)
}

// MarshalJSON writes the number, or null when infinite.
func (m Mean) MarshalJSON() ([]byte, error) {
	if m.IsInf() || math.IsNaN(float64(m)) {
		return []byte("null"), nil
	}
	return []byte(m.String()), nil
}

// UnmarshalJSON reads a number or null (infinite).
func (m *Mean) UnmarshalJSON(b []byte) error {
	var f *float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	if f == nil {
		*m = Mean(math.Inf(1))
	} else {
		*m = Mean(*f)
	}
	return nil
}
