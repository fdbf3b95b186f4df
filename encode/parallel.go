package encode

import (
	"io"
	"runtime"
	"sync"
)

// chunkBytes is about how much one chunk of rows encodes to.
const chunkBytes = 1 << 20

// rowEncoder appends the encoding of rows lo..hi-1 to b.
type rowEncoder func(lo, hi int, b []byte) []byte

// writeRows encodes rows 0..n-1 in chunks of about chunkBytes (rowBytes
// estimates one row) on GOMAXPROCS goroutines, each with the encoder that
// newEncoder returns to it, and writes the chunks to w in order. At most a
// few chunks per goroutine are held at once.
func writeRows(w io.Writer, n, rowBytes int, newEncoder func() rowEncoder) error {
	per := max(1, chunkBytes/max(rowBytes, 1))
	chunks := (n + per - 1) / per
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		enc := newEncoder()
		var b []byte
		for lo := 0; lo < n; lo += per {
			b = enc(lo, min(lo+per, n), b[:0])
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	type chunk struct {
		lo, hi int
		buf    []byte
		done   chan struct{}
	}
	todo := make(chan *chunk, workers)      // to the encoders
	inOrder := make(chan *chunk, 2*workers) // to the writer, in row order
	free := make(chan []byte, 3*workers)    // buffers to reuse
	stop := make(chan struct{})             // closed when a write fails
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			enc := newEncoder()
			for c := range todo {
				c.buf = enc(c.lo, c.hi, c.buf[:0])
				close(c.done)
			}
		}()
	}
	wg.Add(1) // the producer too, so nothing outlives the call
	go func() {
		defer wg.Done()
		defer close(todo)
		defer close(inOrder)
		for lo := 0; lo < n; lo += per {
			c := &chunk{lo: lo, hi: min(lo+per, n), done: make(chan struct{})}
			select {
			case c.buf = <-free:
			default:
			}
			select {
			case inOrder <- c:
			case <-stop:
				return
			}
			select {
			case todo <- c:
			case <-stop:
				return
			}
		}
	}()
	var err error
	for c := range inOrder {
		<-c.done
		if _, err = w.Write(c.buf); err != nil {
			close(stop)
			break
		}
		select {
		case free <- c.buf:
		default:
		}
	}
	wg.Wait()
	return err
}

// mapRows splits rows 0..n-1 into shares, one per goroutine up to
// GOMAXPROCS, and returns f of each share.
func mapRows[T any](n int, f func(lo, hi int) T) []T {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/64))
	out := make([]T, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(n*i/workers, n*(i+1)/workers)
		}()
	}
	wg.Wait()
	return out
}
