package nccl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"unsafe"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/dynlib"
)

// ErrNoNCCL is wrapped by errors that mean no usable NCCL library.
var ErrNoNCCL = errors.New("no usable NCCL library")

// Where the library is: APSP_LIBNCCL names a file directly.
var library = dynlib.Spec{
	Env:   "APSP_LIBNCCL",
	Names: []string{"libnccl.so.2", "libnccl.so"},
	Dirs:  []string{"/usr/lib/x86_64-linux-gnu", "/usr/local/cuda/lib64", "/usr/local/nccl/lib", "/usr/lib64", "/usr/lib", "/usr/local/lib"},
}

// UniqueID is ncclUniqueId: NCCL_UNIQUE_ID_BYTES = 128 opaque bytes that
// rank 0 makes and every rank passes to InitRank (nccl.h: typedef struct
// { char internal[NCCL_UNIQUE_ID_BYTES]; } ncclUniqueId). It travels by
// value: under the SysV x86-64 ABI a struct over 16 bytes is passed in
// memory on the stack, which purego does for struct arguments over 64
// bytes (struct_amd64.go, placeStack).
type UniqueID struct{ Internal [128]byte }

// ncclDataType_t and ncclRedOp_t values (NCCL user guide, api/types.html:
// ncclInt8 = ncclChar = 0, ncclInt64 = 4; ncclSum = 0).
const (
	ncclInt8  = 0
	ncclInt64 = 4
	ncclSum   = 0
)

// API holds the bound functions. Signatures from the NCCL user guide,
// api/comms.html and api/colls.html (NCCL 2.18–2.28); ncclComm_t and
// cudaStream_t are pointers.
type API struct {
	Path    string
	Version int // NCCL_VERSION_CODE, e.g. 22803 for 2.28.3

	getVersion     func(v *int32) Result
	getUniqueID    func(id *UniqueID) Result
	commInitRank   func(c *uintptr, nranks int32, id UniqueID, rank int32) Result
	commInitAll    func(c *uintptr, ndev int32, devlist *int32) Result
	commSplit      func(c uintptr, color, key int32, out *uintptr, config unsafe.Pointer) Result
	commDestroy    func(c uintptr) Result
	commAbort      func(c uintptr) Result
	commCount      func(c uintptr, n *int32) Result
	commUserRank   func(c uintptr, r *int32) Result
	broadcast      func(send, recv uint64, count uint64, dtype int32, root int32, c uintptr, stream uintptr) Result
	allReduce      func(send, recv uint64, count uint64, dtype int32, op int32, c uintptr, stream uintptr) Result
	groupStart     func() Result
	groupEnd       func() Result
	getErrorString func(r Result) string
}

// Load opens libnccl and binds the functions. The error wraps ErrNoNCCL
// when the library is missing or lacks a symbol (NCCL older than 2.18 has
// no ncclCommSplit).
//
// Two NCCL settings change their default unless set in the environment:
// NVLink multicast (NVLS) is off, because apsp's broadcasts do not need it
// and on shared machines a program that uses it can put the host's GPUs
// out of service; and connections are made when a communicator is created
// (NCCL_RUNTIME_CONNECT=0), not at its first broadcast, where between
// processes their set-up lands inside the computation's first round
// (docs/perf.md, "Several hosts through MPI").
func Load() (*API, error) {
	for _, kv := range [][2]string{{"NCCL_NVLS_ENABLE", "0"}, {"NCCL_RUNTIME_CONNECT", "0"}} {
		if _, set := os.LookupEnv(kv[0]); !set {
			if err := os.Setenv(kv[0], kv[1]); err != nil {
				return nil, fmt.Errorf("%w: setting %s=%s: %v", ErrNoNCCL, kv[0], kv[1], err)
			}
		}
	}
	a := &API{}
	// A missing symbol is an error naming it.
	lib, err := library.Load(
		dynlib.Func(&a.getVersion, "ncclGetVersion"),
		dynlib.Func(&a.getUniqueID, "ncclGetUniqueId"),
		dynlib.Func(&a.commInitRank, "ncclCommInitRank"),
		dynlib.Func(&a.commInitAll, "ncclCommInitAll"),
		dynlib.Func(&a.commSplit, "ncclCommSplit"),
		dynlib.Func(&a.commDestroy, "ncclCommDestroy"),
		dynlib.Func(&a.commAbort, "ncclCommAbort"),
		dynlib.Func(&a.commCount, "ncclCommCount"),
		dynlib.Func(&a.commUserRank, "ncclCommUserRank"),
		dynlib.Func(&a.broadcast, "ncclBroadcast"),
		dynlib.Func(&a.allReduce, "ncclAllReduce"),
		dynlib.Func(&a.groupStart, "ncclGroupStart"),
		dynlib.Func(&a.groupEnd, "ncclGroupEnd"),
		dynlib.Func(&a.getErrorString, "ncclGetErrorString"),
	)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoNCCL, err)
	}
	a.Path = lib.Path
	var v int32
	if err := a.check("ncclGetVersion", a.getVersion(&v)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoNCCL, err)
	}
	a.Version = int(v)
	return a, nil
}

// NewUniqueID makes the id of a new communicator (on rank 0; the others
// receive it by MPI or, in one process, by value).
func (a *API) NewUniqueID() (UniqueID, error) {
	var id UniqueID
	return id, a.check("ncclGetUniqueId", a.getUniqueID(&id))
}

// InitRank joins rank of an nranks communicator named by id. The calling
// thread's current CUDA context picks the device; stream carries the
// collectives and scratch (8 bytes of device memory, or 0) serves Barrier.
// It blocks until every rank has joined: in one process, call it from
// each GPU's goroutine, or between GroupStart and GroupEnd.
func (a *API) InitRank(nranks, rank int, id UniqueID, stream uintptr, scratch uint64) (*Comm, error) {
	var c uintptr
	if err := a.check("ncclCommInitRank", a.commInitRank(&c, int32(nranks), id, int32(rank))); err != nil {
		return nil, err
	}
	return &Comm{api: a, c: c, rank: rank, size: nranks, stream: stream, scratch: scratch}, nil
}

// InitAll makes one communicator per device of a single process
// (ncclCommInitAll); streams[i] and scratch[i] belong to devices[i].
func (a *API) InitAll(devices []int, streams []uintptr, scratch []uint64) ([]*Comm, error) {
	if len(devices) == 0 || len(streams) != len(devices) || len(scratch) != len(devices) {
		return nil, fmt.Errorf("nccl: InitAll of %d devices, %d streams, %d scratch buffers", len(devices), len(streams), len(scratch))
	}
	devs := make([]int32, len(devices))
	for i, d := range devices {
		devs[i] = int32(d)
	}
	cs := make([]uintptr, len(devices))
	if err := a.check("ncclCommInitAll", a.commInitAll(&cs[0], int32(len(devs)), &devs[0])); err != nil {
		return nil, err
	}
	out := make([]*Comm, len(cs))
	for i, c := range cs {
		out[i] = &Comm{api: a, c: c, rank: i, size: len(cs), stream: streams[i], scratch: scratch[i]}
	}
	return out, nil
}

// GroupStart and GroupEnd bracket calls that must be issued together
// from one thread (several communicators' collectives, or InitRank of
// several devices).
func (a *API) GroupStart() error { return a.check("ncclGroupStart", a.groupStart()) }

// GroupEnd ends a group started by GroupStart.
func (a *API) GroupEnd() error { return a.check("ncclGroupEnd", a.groupEnd()) }

// Comm is one rank of an NCCL communicator; it implements comm.Comm for
// device buffers.
type Comm struct {
	api        *API
	c          uintptr
	rank, size int
	stream     uintptr
	scratch    uint64
}

var _ comm.Comm = (*Comm)(nil)

func (c *Comm) Rank() int { return c.rank }
func (c *Comm) Size() int { return c.size }

// Bcast enqueues an in-place ncclBroadcast (sendbuff == recvbuff) of the
// buffer's bytes from root.
func (c *Comm) Bcast(ctx context.Context, buf comm.Buffer, root int) error {
	if err := c.usable(ctx, buf); err != nil {
		return err
	}
	return c.api.check("ncclBroadcast", c.api.broadcast(buf.Device, buf.Device, uint64(buf.Bytes), ncclInt8, int32(root), c.c, c.stream))
}

// AllReduceSum enqueues an in-place ncclAllReduce of int64 values.
func (c *Comm) AllReduceSum(ctx context.Context, buf comm.Buffer) error {
	if err := c.usable(ctx, buf); err != nil {
		return err
	}
	if buf.Bytes%8 != 0 {
		return fmt.Errorf("nccl: AllReduceSum of %d bytes: want int64 values", buf.Bytes)
	}
	return c.api.check("ncclAllReduce", c.api.allReduce(buf.Device, buf.Device, uint64(buf.Bytes/8), ncclInt64, ncclSum, c.c, c.stream))
}

// Barrier enqueues an all-reduce of the 8-byte scratch word: NCCL has no
// barrier, and this one orders the stream, not the host.
func (c *Comm) Barrier(ctx context.Context) error {
	if c.scratch == 0 {
		return errors.New("nccl: Barrier needs the scratch word given to InitRank")
	}
	return c.AllReduceSum(ctx, comm.DeviceBuffer(c.scratch, 8))
}

// Split is ncclCommSplit (NCCL ≥ 2.18) with the default configuration; the
// new communicator shares this one's stream and scratch word.
func (c *Comm) Split(ctx context.Context, color, key int) (comm.Comm, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out uintptr
	if err := c.api.check("ncclCommSplit", c.api.commSplit(c.c, int32(color), int32(key), &out, nil)); err != nil {
		return nil, err
	}
	var rank, size int32
	if err := c.api.check("ncclCommUserRank", c.api.commUserRank(out, &rank)); err != nil {
		return nil, err
	}
	if err := c.api.check("ncclCommCount", c.api.commCount(out, &size)); err != nil {
		return nil, err
	}
	return &Comm{api: c.api, c: out, rank: int(rank), size: int(size), stream: c.stream, scratch: c.scratch}, nil
}

// Abort is ncclCommAbort: pending operations end and the communicator is
// freed; err is the caller's reason, reported by the caller.
func (c *Comm) Abort(error) {
	if c.c != 0 {
		c.api.commAbort(c.c)
		c.c = 0
	}
}

// Close is ncclCommDestroy.
func (c *Comm) Close() error {
	if c.c == 0 {
		return nil
	}
	err := c.api.check("ncclCommDestroy", c.api.commDestroy(c.c))
	c.c = 0
	return err
}

func (c *Comm) usable(ctx context.Context, buf comm.Buffer) error {
	switch {
	case c.c == 0:
		return fmt.Errorf("nccl: %w: communicator closed or aborted", comm.ErrAborted)
	case buf.Host != nil:
		return errors.New("nccl: a host buffer: NCCL moves device memory")
	}
	return ctx.Err()
}
