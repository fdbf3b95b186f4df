package npy

import (
	"bytes"
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
