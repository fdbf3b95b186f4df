package comm

import (
	"context"
	"errors"
	"unsafe"
)

// ErrAborted is wrapped by the error every rank gets once one rank has
// aborted the communicator (failed, or its context was cancelled): no rank
// is left waiting for a partner that will never come.
var ErrAborted = errors.New("communicator aborted")

// Comm is one rank's end of a communicator. Every method but Rank, Size
// and Abort is collective: all ranks of the communicator call it, in the
// same order, with the same sizes and root.
type Comm interface {
	// Rank is this rank's index in the communicator, 0..Size()-1.
	Rank() int
	// Size is the number of ranks.
	Size() int
	// Bcast copies root's buf into every other rank's buf.
	Bcast(ctx context.Context, buf Buffer, root int) error
	// AllReduceSum replaces buf, int64 values, with their element-wise sum
	// over the ranks.
	AllReduceSum(ctx context.Context, buf Buffer) error
	// Barrier returns once every rank has entered it.
	Barrier(ctx context.Context) error
	// Split makes sub-communicators: the ranks that give the same color
	// form one, ordered by key (then by rank). A rank grid's row group is
	// Split(row, col), its column group Split(col, row).
	Split(ctx context.Context, color, key int) (Comm, error)
	// Abort makes every pending and later collective of every rank fail
	// with an error wrapping ErrAborted and err.
	Abort(err error)
	// Close releases the communicator; it is not collective for the fake.
	Close() error
}

// Maxer is the optional collective of a communicator that can take
// element-wise maxima itself (MPI_MAX); AllReduceMax uses it where it is
// there.
type Maxer interface {
	// AllReduceMax replaces buf, int64 values, with their element-wise
	// maximum over the ranks.
	AllReduceMax(ctx context.Context, buf Buffer) error
}

// AllReduceMax replaces vals with their element-wise maximum over the
// ranks of c (collective): in one reduction where c is a Maxer, else by
// each rank broadcasting its values in turn (size broadcasts of the
// values).
func AllReduceMax(ctx context.Context, c Comm, vals []int64) error {
	if m, ok := c.(Maxer); ok {
		return m.AllReduceMax(ctx, HostBuffer(vals))
	}
	mine := append([]int64(nil), vals...)
	peer := make([]int64, len(vals))
	for q := range c.Size() {
		if q == c.Rank() {
			copy(peer, mine)
		}
		if err := c.Bcast(ctx, HostBuffer(peer), q); err != nil {
			return err
		}
		for i, x := range peer {
			vals[i] = max(vals[i], x)
		}
	}
	return nil
}

// Buffer is the memory a collective moves: Host for the fake and MPI,
// Device (a CUdeviceptr, Bytes long) for NCCL. An implementation refuses
// the kind it cannot move.
type Buffer struct {
	Host   []byte
	Device uint64
	Bytes  int
}

// Len is the buffer's length in bytes.
func (b Buffer) Len() int {
	if b.Host != nil {
		return len(b.Host)
	}
	return b.Bytes
}

// HostBuffer views a slice of plain values (lanes, int64 sums) as a host
// buffer without copying; the slice must stay alive while it is used.
func HostBuffer[T ~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64 | ~uint8 | ~uint32 | ~uint64](s []T) Buffer {
	if len(s) == 0 {
		return Buffer{Host: []byte{}}
	}
	var zero T
	return Buffer{Host: unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))}
}

// DeviceBuffer names bytes of device memory at ptr.
func DeviceBuffer(ptr uint64, bytes int) Buffer { return Buffer{Device: ptr, Bytes: bytes} }

// int64s views host bytes as int64 values (len a multiple of 8).
func int64s(b []byte) []int64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8)
}
