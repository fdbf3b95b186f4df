package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
	"github.com/apsp/apsp/graph/gen"
)

// config is the command's flags.
type config struct {
	url         string
	clients     int
	n, d        int
	pool        int
	duration    time.Duration
	count       int
	op          string
	device      string
	jsonEdges   bool
	tokenFile   string
	allowRemote bool
	seed        int
	jsonOut     bool
}

func main() {
	var c config
	fs := flag.NewFlagSet("apsp-load", flag.ContinueOnError)
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080", "the service's base URL")
	fs.IntVar(&c.clients, "c", 64, "concurrent clients")
	fs.IntVar(&c.n, "n", 64, "vertices of each graph")
	fs.IntVar(&c.d, "d", 4, "degree of each graph (random d-regular)")
	fs.IntVar(&c.pool, "graphs", 1024, "distinct graphs sent in turn")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long to send (unless -count)")
	fs.IntVar(&c.count, "count", 0, "send this many requests, then stop (0: for -duration)")
	fs.StringVar(&c.op, "op", "summary", "the operation: summary or stats")
	fs.StringVar(&c.device, "device", "", `the requests' options.device ("gpu" computes the batches on a GPU; empty: the service's "auto", which uses a GPU only once one is open in its process)`)
	fs.BoolVar(&c.jsonEdges, "json-edges", false, `send edges as JSON pairs ("edges") instead of base64 ("edges_b64", as the Python client)`)
	fs.StringVar(&c.tokenFile, "token-file", "", "send the bearer token in `FILE`")
	fs.BoolVar(&c.allowRemote, "allow-remote", false, "allow a URL whose host is not a loopback address")
	fs.IntVar(&c.seed, "seed", 1, "seed of the first graph")
	fs.BoolVar(&c.jsonOut, "json", false, "print the report as JSON")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := run(ctx, c, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apsp-load:", err)
		os.Exit(1)
	}
	if c.jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Println(string(b))
	} else {
		fmt.Println(rep)
	}
	if rep.Wrong > 0 || rep.Failed > 0 {
		os.Exit(1)
	}
}

// report is what a run measured.
type report struct {
	Requests     int     `json:"requests"`
	Wrong        int     `json:"wrong"`  // answers that differ from the library's
	Failed       int     `json:"failed"` // errors and statuses other than 200
	Seconds      float64 `json:"seconds"`
	GraphsPerSec float64 `json:"graphs_per_second"`
	P50ms        float64 `json:"p50_ms"`
	P90ms        float64 `json:"p90_ms"`
	P99ms        float64 `json:"p99_ms"`
	MaxMs        float64 `json:"max_ms"`
	Clients      int     `json:"clients"`
	N            int     `json:"n"`
	D            int     `json:"d"`
	FirstError   string  `json:"first_error,omitempty"`
}

func (r *report) String() string {
	s := fmt.Sprintf("%d requests (%d clients, %d-regular n=%d) in %.2f s: %.0f graphs/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; %d wrong, %d failed",
		r.Requests, r.Clients, r.D, r.N, r.Seconds, r.GraphsPerSec, r.P50ms, r.P90ms, r.P99ms, r.MaxMs, r.Wrong, r.Failed)
	if r.FirstError != "" {
		s += "\nfirst error: " + r.FirstError
	}
	return s
}

// checkLoopback refuses a URL whose host is not a loopback address.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("-url %s: %w", raw, err)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url %s: %q is not a loopback address (127.0.0.0/8, ::1, localhost): give -allow-remote to load another host", raw, host)
	}
	return nil
}

// body is one graph's request body and its expected answer.
type body struct {
	data     []byte
	diameter []byte // the library's answer, as JSON
	aspl     []byte
}

// makeBodies generates the pool of graphs and their answers.
func makeBodies(ctx context.Context, c config) ([]body, error) {
	graphs := make([]*graph.Graph, c.pool)
	out := make([]body, c.pool)
	for i := range graphs {
		g, err := gen.Make("regular", "n="+strconv.Itoa(c.n), "d="+strconv.Itoa(c.d), "seed="+strconv.Itoa(c.seed+i))
		if err != nil {
			return nil, fmt.Errorf("generating graph %d: %w", i, err)
		}
		graphs[i] = g
		var edges [][2]int32
		raw := make([]byte, 0, 4*g.Arcs())
		for u := range g.N() {
			for _, v := range g.Neighbors(u) {
				if int(v) > u {
					edges = append(edges, [2]int32{int32(u), v})
					raw = binary.LittleEndian.AppendUint32(raw, uint32(u))
					raw = binary.LittleEndian.AppendUint32(raw, uint32(v))
				}
			}
		}
		req := map[string]any{"id": i, "n": g.N()}
		if c.device != "" {
			req["options"] = map[string]string{"device": c.device}
		}
		if c.jsonEdges {
			req["edges"] = edges
		} else {
			req["edges_b64"] = base64.StdEncoding.EncodeToString(raw)
		}
		if out[i].data, err = json.Marshal(req); err != nil {
			return nil, err
		}
	}
	sums, errs := apsp.SummaryBatch(ctx, graphs, apsp.Options{})
	for i := range out {
		if errs[i] != nil {
			return nil, fmt.Errorf("graph %d: %w", i, errs[i])
		}
		d, err1 := json.Marshal(sums[i].Diameter)
		a, err2 := json.Marshal(sums[i].ASPL)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		out[i].diameter, out[i].aspl = d, a
	}
	return out, nil
}

// answer is the part of a response the generator checks.
type answer struct {
	Result *struct {
		Diameter json.RawMessage `json:"diameter"`
		ASPL     json.RawMessage `json:"aspl"`
	} `json:"result"`
	Error string `json:"error"`
}

func run(ctx context.Context, c config, logw io.Writer) (*report, error) {
	if !c.allowRemote {
		if err := checkLoopback(c.url); err != nil {
			return nil, err
		}
	}
	if c.clients <= 0 || c.pool <= 0 || c.n <= 0 || c.d < 0 {
		return nil, fmt.Errorf("-c, -graphs and -n must be positive, -d not negative")
	}
	if c.op != "summary" && c.op != "stats" {
		return nil, fmt.Errorf("-op %s: want summary or stats", c.op)
	}
	var token string
	if c.tokenFile != "" {
		data, err := os.ReadFile(c.tokenFile)
		if err != nil {
			return nil, fmt.Errorf("reading -token-file: %w", err)
		}
		token, _, _ = strings.Cut(string(data), "\n")
		token = strings.TrimSpace(token)
	}
	fmt.Fprintf(logw, "apsp-load: generating %d random %d-regular graphs of %d vertices and their answers\n", c.pool, c.d, c.n)
	bodies, err := makeBodies(ctx, c)
	if err != nil {
		return nil, err
	}
	tr := &http.Transport{MaxIdleConns: c.clients * 2, MaxIdleConnsPerHost: c.clients * 2, MaxConnsPerHost: c.clients * 2,
		IdleConnTimeout: time.Minute, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	target := strings.TrimSuffix(c.url, "/") + "/v1/" + c.op

	var sent atomic.Int64
	var wrong, failed atomic.Int64
	var firstErr atomic.Value
	lat := make([][]time.Duration, c.clients)
	runCtx := ctx
	if c.count == 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, c.duration)
		defer cancel()
	}
	fmt.Fprintf(logw, "apsp-load: %d clients sending to %s\n", c.clients, target)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range c.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for runCtx.Err() == nil {
				k := sent.Add(1) - 1
				if c.count > 0 && k >= int64(c.count) {
					return
				}
				b := &bodies[int(k)%len(bodies)]
				t0 := time.Now()
				req, _ := http.NewRequestWithContext(runCtx, http.MethodPost, target, bytes.NewReader(b.data))
				req.Header.Set("Content-Type", "application/json")
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				resp, err := client.Do(req)
				if err != nil {
					if runCtx.Err() != nil {
						return // the run's end, not a failure
					}
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				buf.Reset()
				_, err = buf.ReadFrom(resp.Body)
				resp.Body.Close()
				d := time.Since(t0)
				if err != nil || resp.StatusCode != http.StatusOK {
					if runCtx.Err() != nil {
						return
					}
					failed.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprintf("status %d: %s", resp.StatusCode, strings.TrimSpace(buf.String())))
					continue
				}
				lat[w] = append(lat[w], d)
				var a answer
				if err := json.Unmarshal(buf.Bytes(), &a); err != nil || a.Result == nil || !bytes.Equal(a.Result.Diameter, b.diameter) || !bytes.Equal(a.Result.ASPL, b.aspl) {
					wrong.Add(1)
					firstErr.CompareAndSwap(nil, "wrong answer: "+buf.String())
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	rep := &report{Requests: len(all), Wrong: int(wrong.Load()), Failed: int(failed.Load()), Seconds: elapsed.Seconds(),
		GraphsPerSec: float64(len(all)) / elapsed.Seconds(), Clients: c.clients, N: c.n, D: c.d}
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		i := min(len(all)-1, int(math.Ceil(p*float64(len(all))))-1)
		return float64(all[max(i, 0)]) / 1e6
	}
	rep.P50ms, rep.P90ms, rep.P99ms, rep.MaxMs = pct(0.5), pct(0.9), pct(0.99), pct(1)
	if e, ok := firstErr.Load().(string); ok {
		rep.FirstError = e
	}
	return rep, nil
}
