package mpi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"unsafe"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/dynlib"
)

// ErrNoMPI is wrapped by errors that mean no usable Open MPI library.
var ErrNoMPI = errors.New("no usable Open MPI library")

// Where the library is: APSP_LIBMPI names a file directly.
var library = dynlib.Spec{
	Env:   "APSP_LIBMPI",
	Names: []string{"libmpi.so.40", "libmpi.so"},
	Dirs:  []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu/openmpi/lib", "/usr/local/lib", "/opt/openmpi/lib", "/usr/lib64/openmpi/lib", "/usr/lib64", "/usr/lib"},
}

// Constants of Open MPI's mpi.h (v4): MPI_THREAD_SERIALIZED is the third
// of the MPI_Init_thread enum; MPI_IN_PLACE is ((void *) 1);
// MPI_MAX_ERROR_STRING is OPAL_MAX_ERROR_STRING, 256.
const (
	threadSerialized = 2
	inPlace          = uintptr(1)
	maxErrorString   = 256
	// maxCount bounds one call's count, an int: larger buffers go in
	// pieces.
	maxCount = 1 << 30
)

// handles are the addresses of the predefined objects.
type handles struct {
	commWorld, byteType, int64Type, opSum, opMax, errorsReturn uintptr
}

// API holds the bound functions (MPI-3 C bindings; MPI_Comm, MPI_Datatype,
// MPI_Op and MPI_Errhandler are pointers in Open MPI).
type API struct {
	Path string
	h    handles

	initialized func(flag *int32) int32
	initThread  func(argc, argv unsafe.Pointer, required int32, provided *int32) int32
	finalize    func() int32
	finalized   func(flag *int32) int32
	commRank    func(c uintptr, r *int32) int32
	commSize    func(c uintptr, n *int32) int32
	commSplit   func(c uintptr, color, key int32, out *uintptr) int32
	commFree    func(c *uintptr) int32
	commSetErrh func(c uintptr, e uintptr) int32
	bcast       func(buf unsafe.Pointer, count int32, dtype uintptr, root int32, c uintptr) int32
	allreduce   func(send uintptr, recv unsafe.Pointer, count int32, dtype, op uintptr, c uintptr) int32
	barrier     func(c uintptr) int32
	abort       func(c uintptr, code int32) int32
	errorString func(code int32, s *byte, n *int32) int32
}

// Load opens libmpi, binds the functions and looks up the handles; it does
// not initialise MPI (Init does). The error wraps ErrNoMPI when the
// library is missing or is not Open MPI.
func Load() (*API, error) {
	lib, err := library.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoMPI, err)
	}
	a := &API{Path: lib.Path}
	for _, s := range []struct {
		p    *uintptr
		name string
	}{
		{&a.h.commWorld, "ompi_mpi_comm_world"},
		{&a.h.byteType, "ompi_mpi_byte"},
		{&a.h.int64Type, "ompi_mpi_int64_t"},
		{&a.h.opSum, "ompi_mpi_op_sum"},
		{&a.h.opMax, "ompi_mpi_op_max"},
		{&a.h.errorsReturn, "ompi_mpi_errors_return"},
	} {
		if *s.p, err = lib.Addr(s.name); err != nil {
			return nil, fmt.Errorf("%w: %s has no %s (not Open MPI?): %v", ErrNoMPI, lib.Path, s.name, err)
		}
	}
	if err := lib.Bind(
		dynlib.Func(&a.initialized, "MPI_Initialized"),
		dynlib.Func(&a.initThread, "MPI_Init_thread"),
		dynlib.Func(&a.finalize, "MPI_Finalize"),
		dynlib.Func(&a.finalized, "MPI_Finalized"),
		dynlib.Func(&a.commRank, "MPI_Comm_rank"),
		dynlib.Func(&a.commSize, "MPI_Comm_size"),
		dynlib.Func(&a.commSplit, "MPI_Comm_split"),
		dynlib.Func(&a.commFree, "MPI_Comm_free"),
		dynlib.Func(&a.commSetErrh, "MPI_Comm_set_errhandler"),
		dynlib.Func(&a.bcast, "MPI_Bcast"),
		dynlib.Func(&a.allreduce, "MPI_Allreduce"),
		dynlib.Func(&a.barrier, "MPI_Barrier"),
		dynlib.Func(&a.abort, "MPI_Abort"),
		dynlib.Func(&a.errorString, "MPI_Error_string"),
	); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoMPI, err)
	}
	return a, nil
}

// Init initialises MPI (once a process; a second call is a no-op) and
// returns MPI_COMM_WORLD with errors set to return. After Finalize MPI
// cannot start again: Init then fails (any other MPI call would end the
// process).
func (a *API) Init() (*Comm, error) {
	var flag int32
	if err := a.check("MPI_Finalized", a.finalized(&flag)); err != nil {
		return nil, err
	}
	if flag != 0 {
		return nil, errors.New("mpi: MPI was finalized in this process and cannot start again")
	}
	if err := a.check("MPI_Initialized", a.initialized(&flag)); err != nil {
		return nil, err
	}
	if flag == 0 {
		var provided int32
		if err := a.check("MPI_Init_thread", a.initThread(nil, nil, threadSerialized, &provided)); err != nil {
			return nil, err
		}
		if provided < threadSerialized {
			return nil, fmt.Errorf("mpi: the library provides thread level %d, apsp needs MPI_THREAD_SERIALIZED", provided)
		}
	}
	return a.wrap("MPI_COMM_WORLD", a.h.commWorld, false)
}

// Finalize ends MPI; every communicator but the world must be closed.
func (a *API) Finalize() error { return a.check("MPI_Finalize", a.finalize()) }

func (a *API) wrap(what string, c uintptr, owned bool) (*Comm, error) {
	if err := a.check("MPI_Comm_set_errhandler", a.commSetErrh(c, a.h.errorsReturn)); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var r, n int32
	if err := a.check("MPI_Comm_rank", a.commRank(c, &r)); err != nil {
		return nil, err
	}
	if err := a.check("MPI_Comm_size", a.commSize(c, &n)); err != nil {
		return nil, err
	}
	return &Comm{api: a, c: c, rank: int(r), size: int(n), owned: owned}, nil
}

// Comm is one rank of an MPI communicator over host memory.
type Comm struct {
	api        *API
	c          uintptr
	rank, size int
	owned      bool // made by Split, freed by Close
}

var (
	_ comm.Comm  = (*Comm)(nil)
	_ comm.Maxer = (*Comm)(nil)
)

func (c *Comm) Rank() int { return c.rank }
func (c *Comm) Size() int { return c.size }

// Bcast is MPI_Bcast of MPI_BYTE, in pieces of at most 2³⁰ bytes.
func (c *Comm) Bcast(ctx context.Context, buf comm.Buffer, root int) error {
	if err := usable(ctx, buf); err != nil {
		return err
	}
	b := buf.Host
	for len(b) > 0 {
		n := min(len(b), maxCount)
		if err := c.api.check("MPI_Bcast", c.api.bcast(unsafe.Pointer(&b[0]), int32(n), c.api.h.byteType, int32(root), c.c)); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// AllReduceSum is an in-place MPI_Allreduce of MPI_INT64_T with MPI_SUM.
func (c *Comm) AllReduceSum(ctx context.Context, buf comm.Buffer) error {
	return c.allReduce(ctx, "AllReduceSum", buf, false)
}

// AllReduceMax is an in-place MPI_Allreduce of MPI_INT64_T with MPI_MAX
// (comm.Maxer).
func (c *Comm) AllReduceMax(ctx context.Context, buf comm.Buffer) error {
	return c.allReduce(ctx, "AllReduceMax", buf, true)
}

func (c *Comm) allReduce(ctx context.Context, what string, buf comm.Buffer, most bool) error {
	if err := usable(ctx, buf); err != nil {
		return err
	}
	if len(buf.Host)%8 != 0 {
		return fmt.Errorf("mpi: %s of %d bytes: want int64 values", what, len(buf.Host))
	}
	op := c.api.h.opSum
	if most {
		op = c.api.h.opMax
	}
	b := buf.Host
	for len(b) > 0 {
		n := min(len(b), maxCount)
		if err := c.api.check("MPI_Allreduce", c.api.allreduce(inPlace, unsafe.Pointer(&b[0]), int32(n/8), c.api.h.int64Type, op, c.c)); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// Barrier is MPI_Barrier.
func (c *Comm) Barrier(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.api.check("MPI_Barrier", c.api.barrier(c.c))
}

// Split is MPI_Comm_split.
func (c *Comm) Split(ctx context.Context, color, key int) (comm.Comm, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out uintptr
	if err := c.api.check("MPI_Comm_split", c.api.commSplit(c.c, int32(color), int32(key), &out)); err != nil {
		return nil, err
	}
	return c.api.wrap("MPI_Comm_split", out, true)
}

// Abort is MPI_Abort: the runtime kills every process of the job, so no
// rank is left waiting in a collective. It does not return, so err, the
// reason, is written to standard error first (the caller never gets to
// report it).
func (c *Comm) Abort(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "apsp: rank %d of %d: %v (aborting the MPI job)\n", c.rank, c.size, err)
	}
	c.api.abort(c.c, 1)
}

// Close frees a communicator made by Split.
func (c *Comm) Close() error {
	if !c.owned || c.c == 0 {
		return nil
	}
	err := c.api.check("MPI_Comm_free", c.api.commFree(&c.c))
	c.c = 0
	return err
}

func usable(ctx context.Context, buf comm.Buffer) error {
	if buf.Host == nil && buf.Bytes > 0 {
		return errors.New("mpi: a device buffer: this binding moves host memory")
	}
	return ctx.Err()
}
