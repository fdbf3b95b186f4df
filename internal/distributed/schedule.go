package distributed

// Group names the communicator a step runs on: a rank's grid row (the
// ranks of its row, indexed by grid column) or grid column (indexed by
// grid row).
type Group int

const (
	NoGroup Group = iota
	RowGroup
	ColGroup
)

// Op is one step of a round.
type Op int

const (
	// ClosePivot: Floyd–Warshall inside the pivot tile (K, K).
	ClosePivot Op = iota + 1
	// BcastPivot: the pivot tile along a row or column group.
	BcastPivot
	// UpdateRowPanel: every local tile (K, J), J ≠ K, becomes
	// min(D, P ⊗ D).
	UpdateRowPanel
	// UpdateColPanel: every local tile (I, K), I ≠ K, becomes
	// min(D, D ⊗ P).
	UpdateColPanel
	// BcastRowPanel: the local tiles of row K (the pivot tile among them
	// where held) down each grid column, from grid row PivotRow.
	BcastRowPanel
	// BcastColPanel: the local tiles of column K across each grid row,
	// from grid column PivotCol.
	BcastColPanel
	// UpdateRest: every local tile (I, J), I ≠ K ≠ J, becomes
	// min(D, C(I) ⊗ R(J)) with the received panels.
	UpdateRest
)

var opNames = [...]string{"", "ClosePivot", "BcastPivot", "UpdateRowPanel", "UpdateColPanel", "BcastRowPanel", "BcastColPanel", "UpdateRest"}

func (o Op) String() string {
	if o > 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(?)"
}

// Step is one thing a rank does in a round: an update of its own tiles, or
// its part in a broadcast of Bytes bytes over Group from Root (the root's
// index in that group).
type Step struct {
	Op    Op
	Group Group
	Root  int
	// Tiles is how many tiles the step touches on this rank (updated, or
	// moved by a broadcast).
	Tiles int
	Bytes int64
}

// Round is round K of the schedule as seen by every rank.
type Round struct {
	K                  int
	PivotRow, PivotCol int // the grid row and column that hold tile row and column K
	PivotOwner         int // the rank of tile (K, K)
}

// Round returns round k's owners.
func (l Layout) Round(k int) Round {
	pr, pc := l.RowOwner(k), l.ColOwner(k)
	return Round{K: k, PivotRow: pr, PivotCol: pc, PivotOwner: l.Grid.Rank(pr, pc)}
}

// Steps is rank r's part of round k, in order, for lanes of laneBytes
// bytes. Every rank of a group lists that group's broadcasts in the same
// order with the same length and root, which is what collectives need.
// The two pivot broadcasts come before any panel update; the two panel
// updates are independent (a GPU overlaps them), and so are the two panel
// broadcasts.
func (l Layout) Steps(r, k, laneBytes int) []Step {
	rd := l.Round(k)
	pr, pc := l.Grid.Coords(r)
	rows, cols := l.Shape(r)
	tile := int64(l.Tile) * int64(l.Tile) * int64(laneBytes)
	var s []Step
	if r == rd.PivotOwner {
		s = append(s, Step{Op: ClosePivot, Tiles: 1})
	}
	if pr == rd.PivotRow {
		s = append(s, Step{Op: BcastPivot, Group: RowGroup, Root: rd.PivotCol, Tiles: 1, Bytes: tile})
	}
	if pc == rd.PivotCol {
		s = append(s, Step{Op: BcastPivot, Group: ColGroup, Root: rd.PivotRow, Tiles: 1, Bytes: tile})
	}
	if pr == rd.PivotRow {
		n := cols
		if pc == rd.PivotCol {
			n-- // the pivot tile is closed already
		}
		s = append(s, Step{Op: UpdateRowPanel, Tiles: n})
	}
	if pc == rd.PivotCol {
		n := rows
		if pr == rd.PivotRow {
			n--
		}
		s = append(s, Step{Op: UpdateColPanel, Tiles: n})
	}
	s = append(s,
		Step{Op: BcastRowPanel, Group: ColGroup, Root: rd.PivotRow, Tiles: cols, Bytes: int64(cols) * tile},
		Step{Op: BcastColPanel, Group: RowGroup, Root: rd.PivotCol, Tiles: rows, Bytes: int64(rows) * tile})
	rest := rows * cols
	if pr == rd.PivotRow {
		rest -= cols
	}
	if pc == rd.PivotCol {
		rest -= rows
	}
	if pr == rd.PivotRow && pc == rd.PivotCol {
		rest++ // the pivot tile was subtracted twice
	}
	return append(s, Step{Op: UpdateRest, Tiles: rest})
}

// Traffic is what the whole run moves between ranks: the bytes received
// by all ranks together, and by the busiest rank, over every round
// (a rank's own part of a broadcast it roots is not counted).
type Traffic struct {
	Total, MaxRank int64
	Rounds         int
}

// Traffic sums the broadcasts of every round for lanes of laneBytes bytes.
func (l Layout) Traffic(laneBytes int) Traffic {
	t := l.Tiles()
	per := make([]int64, l.Grid.Size())
	for k := 0; k < t; k++ {
		for r := range per {
			pr, pc := l.Grid.Coords(r)
			for _, s := range l.Steps(r, k, laneBytes) {
				switch {
				case s.Group == RowGroup && s.Root != pc, s.Group == ColGroup && s.Root != pr:
					per[r] += s.Bytes
				}
			}
		}
	}
	tr := Traffic{Rounds: t}
	for _, b := range per {
		tr.Total += b
		tr.MaxRank = max(tr.MaxRank, b)
	}
	return tr
}
