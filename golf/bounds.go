package golf

import (
	"errors"
	"fmt"
)

// ErrParams is wrapped by the errors of order, degree or grid parameters
// that admit no connected graph or no bound.
var ErrParams = errors.New("golf: invalid parameters")

// Bound is a lower bound of the diameter and of the ASPL.
type Bound struct {
	Diameter int     `json:"diameter"`
	ASPL     float64 `json:"aspl"`
}

// GeneralBound returns the Moore-type lower bounds (Cerf et al., 1974) of
// the diameter and ASPL of a graph of n vertices and degree at most d, as
// Graph Golf's create-random.py and ODP's ODP_Set_lbounds_general compute
// them: the ASPL bound places d(d-1)^(k-1) vertices at distance k from a
// vertex until the n vertices are placed.
func GeneralBound(n, d int) (Bound, error) {
	if err := checkND(n, d); err != nil {
		return Bound{}, err
	}
	placed, diam := 1, 0   // vertices within distance diam of a vertex
	sum, shell := 0.0, 0.0 // distances' sum; vertices at distance r
	for r := 1; ; r++ {
		if r == 1 {
			shell = float64(d)
		} else {
			shell *= float64(d - 1)
		}
		if float64(placed)+shell >= float64(n) {
			break
		}
		placed += int(shell)
		sum += float64(r) * shell
		diam = r
	}
	diam++
	sum += float64(diam) * float64(n-placed)
	return Bound{Diameter: diam, ASPL: sum / float64(n-1)}, nil
}

func checkND(n, d int) error {
	switch {
	case n < 2:
		return fmt.Errorf("%w: n=%d: at least 2 vertices", ErrParams, n)
	case d < 1:
		return fmt.Errorf("%w: d=%d: at least 1", ErrParams, d)
	case d == 1 && n > 2:
		return fmt.Errorf("%w: d=1 n=%d: no connected graph", ErrParams, n)
	}
	return nil
}

// GridBound returns the lower bounds of the diameter and ASPL of a grid
// graph of w×h vertices, degree at most d and edges of length at most r,
// as Graph Golf's lower-lattice.pl and ODP's ODP_Set_lbounds_grid compute
// them: from each vertex, the vertices within k hops are at most the
// Moore bound's count and at most those within Manhattan distance k·r.
// It takes O((w·h)²) steps.
func GridBound(w, h, d, r int) (Bound, error) {
	if w < 1 || h < 1 || r < 1 {
		return Bound{}, fmt.Errorf("%w: w=%d h=%d r=%d: each at least 1", ErrParams, w, h, r)
	}
	mn := w * h
	if err := checkND(mn, d); err != nil {
		return Bound{}, err
	}
	// moore[k]: vertices within k hops by the degree alone.
	moore := []int{1, min(d+1, mn)}
	for cur := d; moore[len(moore)-1] < mn; {
		cur *= d - 1
		moore = append(moore, min(moore[len(moore)-1]+cur, mn))
	}
	maxhop := max((w+h-2+r-1)/r, len(moore)-1)
	for len(moore) <= maxhop {
		moore = append(moore, mn)
	}
	hist := make([]int, maxhop+1)
	mh := make([]int, maxhop+1)
	sum := 0.0
	for x := range w {
		for y := range h {
			clear(hist)
			for x2 := range w {
				for y2 := range h {
					hist[(abs(x-x2)+abs(y-y2)+r-1)/r]++
				}
			}
			for k := 1; k <= maxhop; k++ {
				hist[k] += hist[k-1]
			}
			for k := range mh {
				mh[k] = min(hist[k], moore[k])
			}
			for k := 1; k <= maxhop; k++ {
				sum += float64(mh[k]-mh[k-1]) * float64(k)
			}
		}
	}
	// The corner (w-1, h-1), last above, has the farthest vertices.
	diam := 0
	for mh[diam] != mn {
		diam++
	}
	return Bound{Diameter: diam, ASPL: sum / (float64(mn) * float64(mn-1))}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
