package gpu

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apsp/apsp/internal/comm"
)

// ErrPlacement is wrapped when a family is asked to run somewhere it does
// not (several GPUs for one that runs on one, MPI ranks for an output the
// ranks do not share).
var ErrPlacement = errors.New("GPU placement not supported")

// Placement says where a family's computation runs: one GPU of this
// process (OnGPU, the zero value being GPU 0), a list of them (OnGPUs),
// every GPU the driver sees (OnAll), or one GPU a rank of an MPI job
// (OverRanks). Each family exports one function per output taking a
// Placement, and refuses those it does not run with an error wrapping
// ErrPlacement.
type Placement struct {
	ordinal  int
	ordinals []int // with list
	list     bool
	all      bool
	world    comm.Comm
}

// OnGPU places a computation on GPU ordinal.
func OnGPU(ordinal int) Placement { return Placement{ordinal: ordinal} }

// OnGPUs places a computation on the GPUs listed, in order (the list is
// copied). Families that split their work take them as given: a GPU
// listed twice runs its shares one after the other where a family allows
// it (tests do so on one GPU), and is refused where it does not.
func OnGPUs(ordinals []int) Placement {
	return Placement{ordinals: slices.Clone(ordinals), list: true}
}

// OnAll places a computation on every GPU the driver sees (Visible).
func OnAll() Placement { return Placement{all: true} }

// OverRanks places a computation on the ranks of world together, this
// rank on its GPU ordinal: every rank calls the family's function with
// the same arguments and placement.
func OverRanks(world comm.Comm, ordinal int) Placement {
	return Placement{ordinal: ordinal, world: world}
}

// Ranks returns the communicator and this rank's GPU of a placement over
// MPI ranks; ok is false for the others.
func (p Placement) Ranks() (world comm.Comm, ordinal int, ok bool) {
	if p.world == nil {
		return nil, 0, false
	}
	return p.world, p.ordinal, true
}

// One returns the GPU of a placement on one GPU of this process: OnGPU's,
// or the only one OnGPUs lists. ok is false for the others (several GPUs,
// every GPU, MPI ranks).
func (p Placement) One() (ordinal int, ok bool) {
	switch {
	case p.world != nil || p.all:
		return 0, false
	case p.list:
		if len(p.ordinals) != 1 {
			return 0, false
		}
		return p.ordinals[0], true
	}
	return p.ordinal, true
}

// GPUs returns the GPUs of this process a placement names: OnGPU's one,
// OnGPUs's list as given (a copy), or OnAll's, every GPU the driver sees
// (Visible, whose errors match ErrNoGPU). Over MPI ranks it is this
// rank's GPU.
func (p Placement) GPUs() ([]int, error) {
	switch {
	case p.all:
		return Visible()
	case p.list:
		return slices.Clone(p.ordinals), nil
	}
	return []int{p.ordinal}, nil
}

// String names the placement as the device option does: "gpu:0",
// "gpu:0,1", "gpu:all"; over MPI ranks "rank 1 of 4 (gpu:0)", this
// rank's GPU.
func (p Placement) String() string {
	switch {
	case p.world != nil:
		return fmt.Sprintf("rank %d of %d (gpu:%d)", p.world.Rank(), p.world.Size(), p.ordinal)
	case p.all:
		return "gpu:all"
	case p.list:
		s := make([]string, len(p.ordinals))
		for i, o := range p.ordinals {
			s[i] = strconv.Itoa(o)
		}
		return "gpu:" + strings.Join(s, ",")
	}
	return "gpu:" + strconv.Itoa(p.ordinal)
}

// Refuse is the error of a family (named as the engines are, e.g.
// "gpu-minplus") that does not run what (e.g. "the matrix") at p: it
// wraps ErrPlacement.
func Refuse(family, what string, p Placement) error {
	return fmt.Errorf("%w: %s does not compute %s on %v", ErrPlacement, family, what, p)
}
