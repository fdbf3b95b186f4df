package npy

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		descr string
		shape []int
		data  []byte
	}{
		{"<i4", []int{2, 3}, make([]byte, 24)},
		{"<f8", []int{4}, bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 4)},
		{"<u4", []int{1, 2, 2}, []byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteBytes(&b, tt.descr, tt.shape, tt.data); err != nil {
			t.Fatal(err)
		}
		if (b.Len()-len(tt.data))%64 != 0 {
			t.Fatalf("%s: header not padded to 64 bytes", tt.descr)
		}
		a, err := Read(&b)
		if err != nil {
			t.Fatal(err)
		}
		if a.Descr != tt.descr || len(a.Shape) != len(tt.shape) || !bytes.Equal(a.Data, tt.data) {
			t.Fatalf("got %+v", a)
		}
	}
	// The writer used by apsp dist reads back too.
	var b bytes.Buffer
	w, _ := NewWriter(&b, Int32, 2, 2)
	_ = w.WriteIntRow([]int64{1, -1})
	_ = w.WriteIntRow([]int64{2, 3})
	_ = w.Flush()
	a, err := Read(&b)
	if err != nil || a.Shape[0] != 2 || a.Shape[1] != 2 || len(a.Data) != 16 {
		t.Fatalf("%+v %v", a, err)
	}
}

func TestReadErrors(t *testing.T) {
	for _, in := range []string{"", "NUMPY", "\x93NUMPY\x01\x00\x05\x00{'de", "\x93NUMPY\x09\x00"} {
		if _, err := Read(bytes.NewReader([]byte(in))); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

// Every dtype the writer takes reads back, its extremes included; rows of
// the wrong kind or length are refused.
func TestWriterDtypes(t *testing.T) {
	floats := []float64{0.5, -2, math.Inf(1)}
	le := binary.LittleEndian
	tests := []struct {
		d    Dtype
		ints []int64 // nil: a float dtype
		read func(c []byte) int64
	}{
		{Uint8, []int64{0, 1, math.MaxUint8}, func(c []byte) int64 { return int64(c[0]) }},
		{Int16, []int64{math.MinInt16, -1, math.MaxInt16}, func(c []byte) int64 { return int64(int16(le.Uint16(c))) }},
		{Uint16, []int64{0, 1, math.MaxUint16}, func(c []byte) int64 { return int64(le.Uint16(c)) }},
		{Int32, []int64{1, -1, math.MaxInt32}, func(c []byte) int64 { return int64(int32(le.Uint32(c))) }},
		{Int64, []int64{math.MinInt64, -1, math.MaxInt64}, func(c []byte) int64 { return int64(le.Uint64(c)) }},
		{Float32, nil, nil},
		{Float64, nil, nil},
	}
	for _, tt := range tests {
		d, ints := tt.d, tt.ints
		var b bytes.Buffer
		w, err := NewWriter(&b, d, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		isInt := ints != nil
		if isInt != d.IsInt() {
			t.Errorf("%s: IsInt %v", d, d.IsInt())
		}
		if isInt {
			err = w.WriteIntRow(ints)
		} else {
			ints = []int64{1, 2, 3}
			err = w.WriteFloatRow(floats)
		}
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if isInt && w.WriteFloatRow(floats) == nil || !isInt && w.WriteIntRow(ints) == nil {
			t.Errorf("%s: a row of the other kind was taken", d)
		}
		if w.WriteIntRow(ints[:2]) == nil || w.WriteFloatRow(floats[:2]) == nil {
			t.Errorf("%s: a short row was taken", d)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		a, err := Read(&b)
		if err != nil || a.Descr != string(d) || len(a.Data) != 3*d.Size() {
			t.Fatalf("%s: %+v, %v", d, a, err)
		}
		if size, err := DescrSize(a.Descr); err != nil || size != d.Size() {
			t.Errorf("%s: DescrSize %d, %v, want %d", d, size, err, d.Size())
		}
		for i := 0; i < 3; i++ {
			var ok bool
			c := a.Data[i*d.Size():]
			switch {
			case isInt:
				ok = tt.read(c) == ints[i]
			case d == Float32:
				ok = float64(math.Float32frombits(le.Uint32(c))) == floats[i]
			default:
				ok = math.Float64frombits(le.Uint64(c)) == floats[i]
			}
			if !ok {
				t.Errorf("%s: element %d wrong", d, i)
			}
		}
	}
	if _, err := NewWriter(io.Discard, "<u4", 1, 1); err == nil {
		t.Error("NewWriter took <u4")
	}
}
