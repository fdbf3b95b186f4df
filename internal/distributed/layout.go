package distributed

import (
	"fmt"
	"math"
)

// Grid is a P×Q grid of ranks: rank r sits at grid row r/Q, column r%Q.
type Grid struct{ P, Q int }

// Size is the number of ranks, P·Q.
func (g Grid) Size() int { return g.P * g.Q }

// Rank is the rank at grid row pr, column pc.
func (g Grid) Rank(pr, pc int) int { return pr*g.Q + pc }

// Coords is the grid row and column of rank r.
func (g Grid) Coords(r int) (pr, pc int) { return r / g.Q, r % g.Q }

// GridFor is the most nearly square grid of size ranks with P ≤ Q (1×2,
// 2×2, 2×3, ...): the per-round broadcast volume of a rank is about
// (1/P + 1/Q) of a panel, least for a square grid.
func GridFor(size int) Grid {
	if size < 1 {
		return Grid{P: 1, Q: 1} // no ranks is a caller's error; never a hang or a division by zero
	}
	p := max(1, int(math.Sqrt(float64(size))))
	for size%p != 0 {
		p--
	}
	return Grid{P: p, Q: size / p}
}

// Layout is the distribution of an n×n matrix in Tile×Tile tiles over a
// grid. The matrix is padded to T·Tile (T = ⌈n/Tile⌉) with isolated
// vertices, so n need not be a multiple of the tile nor T of P or Q.
type Layout struct {
	N, Tile int
	Grid    Grid
	// Cyclic deals tile rows (columns) to grid rows (columns) in turn,
	// I mod P, keeping every rank busy to the last rounds; otherwise each
	// grid row holds a contiguous band of about T/P tile rows.
	Cyclic bool
}

// NewLayout checks and returns a layout.
func NewLayout(n, tile int, g Grid, cyclic bool) (Layout, error) {
	switch {
	case n < 1:
		return Layout{}, fmt.Errorf("dist: a matrix of %d vertices", n)
	case tile < 1:
		return Layout{}, fmt.Errorf("dist: tile %d", tile)
	case g.P < 1 || g.Q < 1:
		return Layout{}, fmt.Errorf("dist: a %d×%d grid", g.P, g.Q)
	}
	return Layout{N: n, Tile: tile, Grid: g, Cyclic: cyclic}, nil
}

// Tiles is T, the number of tile rows (and columns).
func (l Layout) Tiles() int { return (l.N + l.Tile - 1) / l.Tile }

// Padded is the padded order T·Tile.
func (l Layout) Padded() int { return l.Tiles() * l.Tile }

// band is the first tile index of block part p of T over parts: parts of
// ⌊T/parts⌋ or one more, the larger first.
func band(t, parts, p int) int { return p*(t/parts) + min(p, t%parts) }

// owner is the part (grid row or column) that holds tile index i of T
// over parts.
func (l Layout) owner(i, parts int) int {
	t := l.Tiles()
	if l.Cyclic {
		return i % parts
	}
	q, r := t/parts, t%parts
	if i < r*(q+1) {
		return i / (q + 1)
	}
	return r + (i-r*(q+1))/q
}

// RowOwner is the grid row holding tile row I.
func (l Layout) RowOwner(i int) int { return l.owner(i, l.Grid.P) }

// ColOwner is the grid column holding tile column J.
func (l Layout) ColOwner(j int) int { return l.owner(j, l.Grid.Q) }

// Owner is the rank holding tile (I, J).
func (l Layout) Owner(i, j int) int { return l.Grid.Rank(l.RowOwner(i), l.ColOwner(j)) }

// held lists the tile indices part p holds of T over parts, in local order.
func (l Layout) held(p, parts int) []int {
	t := l.Tiles()
	var out []int
	if l.Cyclic {
		for i := p; i < t; i += parts {
			out = append(out, i)
		}
		return out
	}
	for i := band(t, parts, p); i < band(t, parts, p+1); i++ {
		out = append(out, i)
	}
	return out
}

// LocalRows lists the tile rows grid row pr holds, in local order.
func (l Layout) LocalRows(pr int) []int { return l.held(pr, l.Grid.P) }

// LocalCols lists the tile columns grid column pc holds, in local order.
func (l Layout) LocalCols(pc int) []int { return l.held(pc, l.Grid.Q) }

// local is the position of tile index i within its part.
func (l Layout) local(i, parts int) int {
	if l.Cyclic {
		return i / parts
	}
	return i - band(l.Tiles(), parts, l.owner(i, parts))
}

// LocalRow is the local position of tile row I on its grid row.
func (l Layout) LocalRow(i int) int { return l.local(i, l.Grid.P) }

// LocalCol is the local position of tile column J on its grid column.
func (l Layout) LocalCol(j int) int { return l.local(j, l.Grid.Q) }

// Shape is rank r's local matrix in tiles: rows × cols. Either is 0 for a
// rank that holds no tile (more grid rows or columns than tiles).
func (l Layout) Shape(r int) (rows, cols int) {
	pr, pc := l.Grid.Coords(r)
	return len(l.LocalRows(pr)), len(l.LocalCols(pc))
}

// LocalBytes is rank r's tile storage for lanes of laneBytes bytes.
func (l Layout) LocalBytes(r, laneBytes int) int64 {
	rows, cols := l.Shape(r)
	return int64(rows) * int64(cols) * int64(l.Tile) * int64(l.Tile) * int64(laneBytes)
}
