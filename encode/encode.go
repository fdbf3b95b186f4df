package encode

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

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

// TSVNamed is TSV for a graph with vertex names: a header row of the
// names (after an empty cell), and each row begins with its vertex's name,
// as pandas.read_csv(sep="\t", index_col=0) reads a labelled matrix. A
// name with a tab or a line break, which would break the table, is
// refused before anything is written.
func TSVNamed(w io.Writer, d *apsp.Distances, names []string) error {
	if len(names) != d.N() {
		return fmt.Errorf("encode: %d names for %d vertices", len(names), d.N())
	}
	longest := 0
	for _, s := range names {
		if strings.ContainsAny(s, "\t\r\n") {
			return fmt.Errorf("encode: vertex name %q holds a tab or a line break, which TSV cannot hold (write .npy: its names go beside it)", s)
		}
		longest = max(longest, len(s))
	}
	if _, err := io.WriteString(w, "\t"+strings.Join(names, "\t")+"\n"); err != nil {
		return err
	}
	n := d.N()
	return writeRows(w, n, 8*n+longest, func() rowEncoder {
		var row []apsp.Length
		return func(lo, hi int, b []byte) []byte {
			for u := lo; u < hi; u++ {
				row = d.Row(u, row)
				b = append(b, names[u]...)
				for _, x := range row {
					b = append(b, '\t')
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
