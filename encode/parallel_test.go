package encode

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// Chunks encoded on several goroutines arrive in row order.
func TestWriteRowsOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, 7, 1000} {
		for _, rowBytes := range []int{chunkBytes, chunkBytes / 3, 1} {
			var got, want bytes.Buffer
			for u := 0; u < n; u++ {
				fmt.Fprintf(&want, "%d\n", u)
			}
			err := writeRows(&got, n, rowBytes, func() rowEncoder {
				return func(lo, hi int, b []byte) []byte {
					for u := lo; u < hi; u++ {
						b = append(strconv.AppendInt(b, int64(u), 10), '\n')
					}
					return b
				}
			})
			if err != nil || got.String() != want.String() {
				t.Fatalf("n %d, row bytes %d: %v, %d bytes, want %d", n, rowBytes, err, got.Len(), want.Len())
			}
		}
	}
}

// failWriter fails after accepting ok writes.
type failWriter struct{ ok int }

var errWrite = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.ok == 0 {
		return 0, errWrite
	}
	f.ok--
	return len(p), nil
}

// A failed write stops the encoders and is returned, without leaking them.
func TestWriteRowsError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	before := runtime.NumGoroutine()
	for _, ok := range []int{0, 1, 5} {
		err := writeRows(&failWriter{ok: ok}, 10000, chunkBytes, func() rowEncoder {
			return func(lo, hi int, b []byte) []byte { return append(b, 'x') }
		})
		if !errors.Is(err, errWrite) {
			t.Fatalf("after %d writes: %v, want %v", ok, err, errWrite)
		}
	}
	d := distances(t, "0 1 3\n1 2 4\n3 2 1\n", true)
	if err := NPY(&failWriter{}, d, Auto); !errors.Is(err, errWrite) {
		t.Fatalf("NPY: %v", err)
	}
	if err := TSV(&failWriter{}, d); !errors.Is(err, errWrite) {
		t.Fatalf("TSV: %v", err)
	}
	// A goroutine that has called wg.Done may not have exited yet, and CI
	// shares its cores: allow it a moment, but a leak stays a failure.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d goroutines, %d before", runtime.NumGoroutine(), before)
}
