package encode

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/apsp/apsp"
)

// StatsText writes s as apsp stats prints it: a "name  value" line per
// measure, the values aligned; center and periphery list their first 10
// vertices and, beyond, the count. The measures s does not hold (NoASPL:
// aspl, reachable pairs, center and periphery) are left out. Vertices are
// written by name when s has names, else as s numbers them: a caller whose
// input counts from 1 shifts Center and Periphery first.
func StatsText(w io.Writer, s *apsp.Stats) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	kind := "undirected"
	if s.Directed {
		kind = "directed"
	}
	fmt.Fprintf(tw, "vertices\t%d\n", s.Vertices)
	fmt.Fprintf(tw, "edges\t%d (%s, %d arcs)\n", s.Edges, kind, s.Arcs)
	fmt.Fprintf(tw, "weighted\t%v\n", yesNo(s.Weighted))
	conn := "connected"
	if s.Directed {
		conn = "strongly connected"
	}
	fmt.Fprintf(tw, "%s\t%s\n", conn, yesNo(s.Connected))
	if s.Reachable {
		fmt.Fprintf(tw, "measures over\treachable pairs only\n")
	}
	fmt.Fprintf(tw, "diameter\t%v\n", s.Diameter)
	fmt.Fprintf(tw, "radius\t%v\n", s.Radius)
	if !s.NoASPL {
		fmt.Fprintf(tw, "aspl\t%v\n", s.ASPL)
		fmt.Fprintf(tw, "reachable pairs\t%d of %d\n", s.ReachablePairs, int64(s.Vertices)*int64(s.Vertices-1))
		fmt.Fprintf(tw, "center\t%s\n", vertexList(s.Center, s.Names))
		fmt.Fprintf(tw, "periphery\t%s\n", vertexList(s.Periphery, s.Names))
	}
	if s.EffectiveRatio != nil && s.EffectiveDiameter != nil && s.EffectiveDiameterInterpolated != nil {
		fmt.Fprintf(tw, "effective diameter\t%v (%v of the pairs with a path; interpolated as SNAP: %v)\n",
			*s.EffectiveDiameter, *s.EffectiveRatio, *s.EffectiveDiameterInterpolated)
	}
	if s.Traversals > 0 {
		fmt.Fprintf(tw, "traversals\t%d breadth-first searches\n", s.Traversals)
	}
	if s.Device == "cpu" {
		fmt.Fprintf(tw, "algorithm\t%s (cpu, %s lanes, %d threads)\n", s.Algorithm, s.Lanes, s.Threads)
	} else {
		fmt.Fprintf(tw, "algorithm\t%s (%s, %s lanes)\n", s.Algorithm, s.Device, s.Lanes)
	}
	fmt.Fprintf(tw, "seconds\t%.3f\n", s.Seconds)
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// vertexList writes up to 10 vertices, by name when there are names, and,
// when there are more, the count.
func vertexList(vs []int, names []string) string {
	const show = 10
	var b strings.Builder
	for i, v := range vs {
		if i == show {
			b.WriteString(" ...")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Vertices{Names: names}.Text(v))
	}
	if len(vs) > show {
		fmt.Fprintf(&b, " (%d vertices)", len(vs))
	}
	return b.String()
}

// StatsWriter writes one record per graph, in the order called: its Stats,
// or why it has none. Each record carries the graph's id, a JSON value (a
// string with its quotes, or a number) as apsp bulk echoes it; an id that
// is not one JSON value is an error, and nothing is written. Flush writes
// what is buffered; call it at the end, and whenever the records so far
// should reach the reader. After a write error every later call fails.
type StatsWriter interface {
	Stats(id json.RawMessage, s *apsp.Stats) error
	Fail(id json.RawMessage, why string) error
	Flush() error
}

// SummaryWriter is StatsWriter for Summary records.
type SummaryWriter interface {
	Summary(id json.RawMessage, s *apsp.Summary) error
	Fail(id json.RawMessage, why string) error
	Flush() error
}

// checkID refuses an id that is not one JSON value.
func checkID(id json.RawMessage) error {
	if !json.Valid(id) {
		return fmt.Errorf("encode: id %q is not a JSON value", id)
	}
	return nil
}

// jsonLines writes JSON Lines: each record an object whose first field is
// "id", then the fields of the value's JSON object.
type jsonLines struct {
	w   *bufio.Writer
	buf bytes.Buffer
}

func (o *jsonLines) encode(v any) ([]byte, error) {
	o.buf.Reset()
	enc := json.NewEncoder(&o.buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return o.buf.Bytes(), nil
}

// record writes {"id":ID, and the fields of v's JSON object after its '{'.
func (o *jsonLines) record(id json.RawMessage, v any) error {
	if err := checkID(id); err != nil {
		return err
	}
	b, err := o.encode(v)
	if err != nil {
		return err
	}
	o.w.WriteString(`{"id":`)
	o.w.Write(id)
	if !bytes.HasPrefix(b, []byte("{}")) {
		o.w.WriteByte(',')
	}
	_, err = o.w.Write(b[1:]) // the object's fields after its '{', and the newline
	return err
}

func (o *jsonLines) fail(id json.RawMessage, why string) error {
	if err := checkID(id); err != nil {
		return err
	}
	b, err := o.encode(struct {
		ID    json.RawMessage `json:"id"`
		Error string          `json:"error"`
	}{id, why})
	if err != nil {
		return err
	}
	_, err = o.w.Write(b)
	return err
}

// StatsJSONL writes Stats as JSON Lines: a line per graph, an object of
// "id" and the fields of stats --json ({"id": ..., "vertices": ...}), or
// {"id": ..., "error": "why"}. HTML characters are not escaped.
type StatsJSONL struct{ o jsonLines }

// NewStatsJSONL returns a StatsJSONL that writes to w, buffered.
func NewStatsJSONL(w io.Writer) *StatsJSONL {
	return &StatsJSONL{jsonLines{w: bufio.NewWriter(w)}}
}

// Stats writes the line of a graph's Stats.
func (j *StatsJSONL) Stats(id json.RawMessage, s *apsp.Stats) error { return j.o.record(id, s) }

// Fail writes the line of a graph that has no Stats, and why.
func (j *StatsJSONL) Fail(id json.RawMessage, why string) error { return j.o.fail(id, why) }

// Flush writes the buffered lines.
func (j *StatsJSONL) Flush() error { return j.o.w.Flush() }

// SummaryJSONL writes Summary records as JSON Lines, as StatsJSONL writes
// Stats: "id", then the fields of the Summary's JSON.
type SummaryJSONL struct{ o jsonLines }

// NewSummaryJSONL returns a SummaryJSONL that writes to w, buffered.
func NewSummaryJSONL(w io.Writer) *SummaryJSONL {
	return &SummaryJSONL{jsonLines{w: bufio.NewWriter(w)}}
}

// Summary writes the line of a graph's Summary.
func (j *SummaryJSONL) Summary(id json.RawMessage, s *apsp.Summary) error { return j.o.record(id, s) }

// Fail writes the line of a graph that has no Summary, and why.
func (j *SummaryJSONL) Fail(id json.RawMessage, why string) error { return j.o.fail(id, why) }

// Flush writes the buffered lines.
func (j *SummaryJSONL) Flush() error { return j.o.w.Flush() }

// statsColumns are the Stats CSV header: "id", the stats --json field
// names (all but no_aspl and traversals, which only stats --no-aspl and
// the bounds method set) and "error".
var statsColumns = []string{"id", "vertices", "arcs", "edges", "directed", "weighted", "connected", "reachable_only",
	"diameter", "radius", "aspl", "reachable_pairs", "center", "periphery", "algorithm", "device", "lanes", "threads",
	"seconds", "error"}

// summaryColumns are the Summary CSV header: "id", the Summary's JSON
// field names and "error".
var summaryColumns = []string{"id", "vertices", "connected", "diameter", "aspl", "reachable_pairs", "algorithm",
	"device", "seconds", "error"}

// StatsCSVHeader returns the header line of StatsCSV: "id", the names of
// the stats --json fields it writes, and "error".
func StatsCSVHeader() []string { return append([]string(nil), statsColumns...) }

// SummaryCSVHeader returns the header line of SummaryCSV: "id", the
// Summary's JSON field names, and "error".
func SummaryCSVHeader() []string { return append([]string(nil), summaryColumns...) }

// csvRows writes CSV rows under a header, which comes first even when no
// row does.
type csvRows struct {
	w       *csv.Writer
	columns []string
	header  bool
}

// idText is an id as a CSV field: a JSON string unquoted, a number as is.
func idText(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

func (o *csvRows) writeHeader() error {
	if o.header {
		return nil
	}
	o.header = true
	return o.w.Write(o.columns)
}

func (o *csvRows) row(r []string) error {
	if err := o.writeHeader(); err != nil {
		return err
	}
	return o.w.Write(r)
}

func (o *csvRows) fail(id json.RawMessage, why string) error {
	if err := checkID(id); err != nil {
		return err
	}
	r := make([]string, len(o.columns))
	r[0], r[len(r)-1] = idText(id), why
	return o.row(r)
}

func (o *csvRows) flush() error {
	if err := o.writeHeader(); err != nil { // no graph at all: the header still says what would come
		return err
	}
	o.w.Flush()
	return o.w.Error()
}

// intList is vertices as one CSV field, space-separated.
func intList(vs []int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, " ")
}

// vertexField is a CSV field of vertices: ids separated by spaces, or,
// when the graph has names (which may hold spaces), a JSON array of them.
func vertexField(vs []int, names []string) string {
	if names == nil {
		return intList(vs)
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = names[v]
	}
	b, _ := json.Marshal(out) // strings always marshal
	return string(b)
}

// StatsCSV writes Stats as CSV: a header line (StatsCSVHeader), then a row
// per graph. Lengths and means are written as Length.String and
// Mean.String do (inf and nan as words), center and periphery as one field
// of space-separated vertices; the measures a NoASPL Stats does not hold
// (aspl, reachable_pairs, center, periphery) are empty, as is every field
// but the id and the error in a failed graph's row. The header is written with the first row, or by Flush when
// there is none. An id that is a JSON string is written unquoted.
type StatsCSV struct{ o csvRows }

// NewStatsCSV returns a StatsCSV that writes to w, buffered.
func NewStatsCSV(w io.Writer) *StatsCSV {
	return &StatsCSV{csvRows{w: csv.NewWriter(w), columns: statsColumns}}
}

// Stats writes the row of a graph's Stats.
func (c *StatsCSV) Stats(id json.RawMessage, s *apsp.Stats) error {
	if err := checkID(id); err != nil {
		return err
	}
	aspl, pairs, center, periphery := s.ASPL.String(), strconv.FormatInt(s.ReachablePairs, 10), vertexField(s.Center, s.Names), vertexField(s.Periphery, s.Names)
	if s.NoASPL {
		aspl, pairs, center, periphery = "", "", "", ""
	}
	return c.o.row([]string{idText(id), strconv.Itoa(s.Vertices), strconv.Itoa(s.Arcs), strconv.Itoa(s.Edges),
		strconv.FormatBool(s.Directed), strconv.FormatBool(s.Weighted), strconv.FormatBool(s.Connected),
		strconv.FormatBool(s.Reachable), s.Diameter.String(), s.Radius.String(), aspl, pairs, center, periphery,
		s.Algorithm, s.Device, s.Lanes, strconv.Itoa(s.Threads), strconv.FormatFloat(s.Seconds, 'g', -1, 64), ""})
}

// Fail writes the row of a graph that has no Stats: its id and why.
func (c *StatsCSV) Fail(id json.RawMessage, why string) error { return c.o.fail(id, why) }

// Flush writes the buffered rows, and the header if no row came.
func (c *StatsCSV) Flush() error { return c.o.flush() }

// SummaryCSV writes Summary records as CSV, as StatsCSV writes Stats, under
// SummaryCSVHeader.
type SummaryCSV struct{ o csvRows }

// NewSummaryCSV returns a SummaryCSV that writes to w, buffered.
func NewSummaryCSV(w io.Writer) *SummaryCSV {
	return &SummaryCSV{csvRows{w: csv.NewWriter(w), columns: summaryColumns}}
}

// Summary writes the row of a graph's Summary.
func (c *SummaryCSV) Summary(id json.RawMessage, s *apsp.Summary) error {
	if err := checkID(id); err != nil {
		return err
	}
	return c.o.row([]string{idText(id), strconv.Itoa(s.Vertices), strconv.FormatBool(s.Connected),
		s.Diameter.String(), s.ASPL.String(), strconv.FormatInt(s.ReachablePairs, 10), s.Algorithm, s.Device,
		strconv.FormatFloat(s.Seconds, 'g', -1, 64), ""})
}

// Fail writes the row of a graph that has no Summary: its id and why.
func (c *SummaryCSV) Fail(id json.RawMessage, why string) error { return c.o.fail(id, why) }

// Flush writes the buffered rows, and the header if no row came.
func (c *SummaryCSV) Flush() error { return c.o.flush() }

// The writers implement the interfaces.
var (
	_ StatsWriter   = (*StatsJSONL)(nil)
	_ StatsWriter   = (*StatsCSV)(nil)
	_ SummaryWriter = (*SummaryJSONL)(nil)
	_ SummaryWriter = (*SummaryCSV)(nil)
)
