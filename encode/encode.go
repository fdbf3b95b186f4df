package encode

import (
	"encoding/json"
	"io"

	"github.com/apsp/apsp"
)

// TSV writes d as tab-separated rows, one per source vertex, with inf for
// unreachable pairs: integers in decimal, floats in the shortest form that
// reads back exactly (Length.String).
func TSV(w io.Writer, d *apsp.Distances) error {
	n := d.N()
	return writeRows(w, n, 8*n, func() rowEncoder {
		var row []apsp.Length
		return func(lo, hi int, b []byte) []byte {
			for u := lo; u < hi; u++ {
				row = d.Row(u, row)
				for v, x := range row {
					if v > 0 {
						b = append(b, '\t')
					}
					b = x.Append(b)
				}
				b = append(b, '\n')
			}
			return b
		}
	})
}

// JSON writes v as JSON indented by two spaces, followed by a newline: the
// form of every --json output of the apsp command. apsp's Length and Mean
// values write infinity as null.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
