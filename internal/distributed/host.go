package distributed

import (
	"context"
	"fmt"

	"github.com/apsp/apsp/internal/comm"
	"github.com/apsp/apsp/internal/lanes"
)

// Local is one rank's tiles: Rows × Cols tiles of Tile×Tile lanes, stored
// as one row-major matrix of (Rows·Tile) × (Cols·Tile) with stride
// Cols·Tile, local tile (a, b) being global tile (LocalRows[a],
// LocalCols[b]). This is also the layout a GPU rank keeps on its device.
type Local[T lanes.Lane] struct {
	Rows, Cols, Tile int
	Data             []T
	Inf              T
}

func (m *Local[T]) stride() int { return m.Cols * m.Tile }

// at returns the slice starting at local tile (a, b).
func (m *Local[T]) at(a, b int) []T {
	return m.Data[a*m.Tile*m.stride()+b*m.Tile:]
}

// Scatter copies rank r's tiles out of the global matrix m (its N real
// vertices; padding up to the layout's order is isolated vertices).
func Scatter[T lanes.Lane](l Layout, m *lanes.Matrix[T], r int) (*Local[T], error) {
	if m.N != l.N {
		return nil, fmt.Errorf("dist: a matrix of %d vertices for a layout of %d", m.N, l.N)
	}
	if lanes.KindOf[T]() == lanes.Int64 && int64(m.Inf) == lanes.InfWide {
		// The host tiles skip only x == Inf; a wide plan's Inf (the
		// smallest value) would win every min as a summand.
		return nil, fmt.Errorf("dist: wide int64 plans (infinity %d) are not distributed", lanes.InfWide)
	}
	pr, pc := l.Grid.Coords(r)
	rows, cols := l.LocalRows(pr), l.LocalCols(pc)
	w := l.Tile
	loc := &Local[T]{Rows: len(rows), Cols: len(cols), Tile: w, Inf: m.Inf}
	loc.Data = make([]T, len(rows)*w*len(cols)*w)
	s := loc.stride()
	for a, ti := range rows {
		for x := 0; x < w; x++ {
			i := ti*w + x
			dst := loc.Data[(a*w+x)*s:]
			for b, tj := range cols {
				for y := 0; y < w; y++ {
					j := tj*w + y
					v := m.Inf
					switch {
					case i < m.N && j < m.N:
						v = m.Data[i*m.Stride+j]
					case i == j:
						v = 0
					}
					dst[b*w+y] = v
				}
			}
		}
	}
	return loc, nil
}

// Gather writes rank r's tiles back into the global matrix m (the real
// vertices only).
func Gather[T lanes.Lane](l Layout, loc *Local[T], r int, m *lanes.Matrix[T]) {
	pr, pc := l.Grid.Coords(r)
	rows, cols := l.LocalRows(pr), l.LocalCols(pc)
	w, s := l.Tile, loc.stride()
	for a, ti := range rows {
		for x := 0; x < w; x++ {
			i := ti*w + x
			if i >= m.N {
				break
			}
			src := loc.Data[(a*w+x)*s:]
			for b, tj := range cols {
				for y := 0; y < w && tj*w+y < m.N; y++ {
					m.Data[i*m.Stride+tj*w+y] = src[b*w+y]
				}
			}
		}
	}
}

// Comms are a rank's row and column groups.
type Comms struct{ Row, Col comm.Comm }

// NewComms splits world, whose ranks are the grid's, into rank r's grid
// row (indexed by grid column) and grid column (indexed by grid row). It
// is collective over world.
func NewComms(ctx context.Context, world comm.Comm, g Grid) (Comms, error) {
	if world.Size() != g.Size() {
		return Comms{}, fmt.Errorf("dist: %d ranks for a %d×%d grid", world.Size(), g.P, g.Q)
	}
	pr, pc := g.Coords(world.Rank())
	row, err := world.Split(ctx, pr, pc)
	if err != nil {
		return Comms{}, fmt.Errorf("dist: row group: %w", err)
	}
	col, err := world.Split(ctx, pc, pr)
	if err != nil {
		return Comms{}, fmt.Errorf("dist: column group: %w", err)
	}
	return Comms{Row: row, Col: col}, nil
}

// RunHost runs blocked Floyd–Warshall on rank r's tiles loc, round by
// round as Layout.Steps lists it, with scalar tile kernels on the CPU: the
// executable form of the schedule, checked against the reference by the
// tests. Every rank of the grid calls it. On an error it aborts both
// groups so that no other rank waits for it. The caller must have ruled
// out negative cycles, as for cpu.Blocked.
func RunHost[T lanes.Lane](ctx context.Context, c Comms, l Layout, r int, loc *Local[T]) (err error) {
	defer func() {
		if err != nil {
			c.Row.Abort(err)
			c.Col.Abort(err)
		}
	}()
	pr, pc := l.Grid.Coords(r)
	if rows, cols := l.Shape(r); loc.Rows != rows || loc.Cols != cols || loc.Tile != l.Tile {
		return fmt.Errorf("dist: rank %d holds %d×%d tiles of %d, the layout says %d×%d of %d", r, loc.Rows, loc.Cols, loc.Tile, rows, cols, l.Tile)
	}
	w, s, inf := l.Tile, loc.stride(), loc.Inf
	laneBytes := int(lanes.KindOf[T]().Bytes())
	pivot := make([]T, w*w)
	rowPanel := make([]T, loc.Cols*w*w) // tile b at b·w·w, stride w
	colPanel := make([]T, loc.Rows*w*w)
	group := func(g Group) comm.Comm {
		if g == RowGroup {
			return c.Row
		}
		return c.Col
	}
	for k := 0; k < l.Tiles(); k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		rd := l.Round(k)
		for _, st := range l.Steps(r, k, laneBytes) {
			switch st.Op {
			case ClosePivot:
				t := loc.at(l.LocalRow(k), l.LocalCol(k))
				closeTile(t, s, w, inf)
				copyTile(pivot, w, t, s, w)
			case BcastPivot:
				if err := group(st.Group).Bcast(ctx, comm.HostBuffer(pivot), st.Root); err != nil {
					return fmt.Errorf("round %d: pivot: %w", k, err)
				}
			case UpdateRowPanel:
				a := l.LocalRow(k)
				for b, tj := range l.LocalCols(pc) {
					if tj != k {
						t := loc.at(a, b)
						minPlus(t, s, pivot, w, t, s, w, inf)
					}
				}
			case UpdateColPanel:
				b := l.LocalCol(k)
				for a, ti := range l.LocalRows(pr) {
					if ti != k {
						t := loc.at(a, b)
						minPlus(t, s, t, s, pivot, w, w, inf)
					}
				}
			case BcastRowPanel:
				if pr == rd.PivotRow {
					for b := range loc.Cols {
						copyTile(rowPanel[b*w*w:], w, loc.at(l.LocalRow(k), b), s, w)
					}
				}
				if err := c.Col.Bcast(ctx, comm.HostBuffer(rowPanel), st.Root); err != nil {
					return fmt.Errorf("round %d: row panel: %w", k, err)
				}
			case BcastColPanel:
				if pc == rd.PivotCol {
					for a := range loc.Rows {
						copyTile(colPanel[a*w*w:], w, loc.at(a, l.LocalCol(k)), s, w)
					}
				}
				if err := c.Row.Bcast(ctx, comm.HostBuffer(colPanel), st.Root); err != nil {
					return fmt.Errorf("round %d: column panel: %w", k, err)
				}
			case UpdateRest:
				for a, ti := range l.LocalRows(pr) {
					if ti == k {
						continue
					}
					for b, tj := range l.LocalCols(pc) {
						if tj != k {
							minPlus(loc.at(a, b), s, colPanel[a*w*w:], w, rowPanel[b*w*w:], w, w, inf)
						}
					}
				}
			}
		}
	}
	return nil
}

// closeTile runs Floyd–Warshall inside one w×w tile (row stride s).
func closeTile[T lanes.Lane](d []T, s, w int, inf T) {
	for k := 0; k < w; k++ {
		rowK := d[k*s : k*s+w]
		for i := 0; i < w; i++ {
			x := d[i*s+k]
			if x == inf {
				continue
			}
			row := d[i*s : i*s+w]
			for j, y := range rowK {
				if v := x + y; v < row[j] {
					row[j] = v
				}
			}
		}
	}
}

// minPlus sets C = min(C, A ⊗ B) for w×w tiles. A or B may be C itself
// (the panel updates): every value written is still the length of a walk
// and no larger than the product's, so the round's result is the same.
func minPlus[T lanes.Lane](c []T, ldc int, a []T, lda int, b []T, ldb int, w int, inf T) {
	for i := 0; i < w; i++ {
		ci := c[i*ldc : i*ldc+w]
		for m := 0; m < w; m++ {
			x := a[i*lda+m]
			if x == inf {
				continue
			}
			for j, y := range b[m*ldb : m*ldb+w] {
				if v := x + y; v < ci[j] {
					ci[j] = v
				}
			}
		}
	}
}

// copyTile copies a w×w tile from src (stride ls) to dst (stride ld).
func copyTile[T lanes.Lane](dst []T, ld int, src []T, ls, w int) {
	for i := 0; i < w; i++ {
		copy(dst[i*ld:i*ld+w], src[i*ls:i*ls+w])
	}
}
