package serve

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apsp/apsp"
	"github.com/apsp/apsp/graph"
)

// A job is one small graph's stats or summary waiting for a batch.
type job struct {
	ctx  context.Context // the request's: a job cancelled before its batch starts is dropped
	op   string          // "stats" or "summary"
	opt  options
	g    *graph.Graph
	done chan outcome // buffered: the batcher never waits on a request
}

// outcome is a job's result (*apsp.Stats or apsp.Summary) or error.
type outcome struct {
	res any
	err error
}

// batchKey groups jobs that one batch call computes.
type batchKey struct {
	op  string
	opt options
}

// batcher gathers jobs for at most wait, or until max have come, and
// computes them with one call of the library's batch path per kind of
// request (apsp.SummaryBatch, apsp.StatsBatchWith): on a GPU its bulk
// kernels, on the CPU the batch over threads. At most conc batches
// compute at once (a second one's host side overlaps the first one's
// kernels); while they do, the next one keeps gathering (up to max), so
// that batches grow with the load rather than the latency.
type batcher struct {
	in   chan *job
	wait time.Duration
	max  int
	conc int
	m    *metrics
	stop chan struct{} // closed by close: gather what is queued, compute it, end
	done chan struct{} // closed when the loop has ended
	once sync.Once
}

func newBatcher(queue, most, conc int, wait time.Duration, m *metrics) *batcher {
	b := &batcher{in: make(chan *job, queue), wait: wait, max: most, conc: max(conc, 1), m: m,
		stop: make(chan struct{}), done: make(chan struct{})}
	go b.loop()
	return b
}

// submit queues j, waiting while the queue is full (the caller's
// admission bounds the requests, so that a wait is short) until ctx ends.
func (b *batcher) submit(ctx context.Context, j *job) error {
	select {
	case b.in <- j:
		b.m.queued.Inc()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-b.stop:
		return errShuttingDown
	}
}

// close ends the loop once the jobs queued have been computed. Call it
// after no more submit can come (the HTTP server has shut down).
func (b *batcher) close() {
	b.once.Do(func() { close(b.stop) })
	<-b.done
}

func (b *batcher) loop() {
	defer close(b.done)
	running := make(chan struct{}, b.conc) // a token a batch computing
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		var first *job
		select {
		case first = <-b.in:
		case <-b.stop:
			// Nothing can be submitted now: compute what is left.
			for {
				select {
				case j := <-b.in:
					b.runNow([]*job{j}, &wg, running)
				default:
					return
				}
			}
		}
		batch := []*job{first}
		timer := time.NewTimer(b.wait)
		expired := b.wait <= 0
	gather:
		for len(batch) < b.max {
			if expired {
				// The window is over: take what is already queued, and
				// keep gathering only while no batch can start.
				select {
				case j := <-b.in:
					batch = append(batch, j)
					continue
				default:
				}
				select {
				case j := <-b.in:
					batch = append(batch, j)
				case running <- struct{}{}:
					<-running // free: start now
					break gather
				}
				continue
			}
			select {
			case j := <-b.in:
				batch = append(batch, j)
			case <-timer.C:
				expired = true
			case <-b.stop:
				expired = true
			}
		}
		timer.Stop()
		b.runNow(batch, &wg, running)
	}
}

// runNow waits for a free slot (fewer than conc batches computing) and
// starts batch.
func (b *batcher) runNow(batch []*job, wg *sync.WaitGroup, running chan struct{}) {
	running <- struct{}{}
	b.m.queued.Sub(float64(len(batch)))
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { <-running }()
		b.compute(batch)
	}()
}

// compute runs one batch: the jobs still wanted, grouped by operation and
// options, one batch call a group.
func (b *batcher) compute(batch []*job) {
	groups := map[batchKey][]*job{}
	var order []batchKey
	for _, j := range batch {
		if err := j.ctx.Err(); err != nil {
			b.m.dropped.Inc()
			j.done <- outcome{err: err}
			continue
		}
		k := batchKey{j.op, j.opt}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], j)
	}
	for _, k := range order {
		jobs := groups[k]
		graphs := make([]*graph.Graph, len(jobs))
		for i, j := range jobs {
			graphs[i] = j.g
		}
		b.m.batchSize.Observe(float64(len(jobs)))
		b.m.computeRun.Inc()
		start := time.Now()
		// A graph started is computed to its end while any request of
		// its group still waits: the group's context ends only when all
		// of theirs have (a large graph batched alone stops when its
		// client goes away).
		ctx, cancel := context.WithCancel(context.Background())
		var live atomic.Int64
		live.Store(int64(len(jobs)))
		stops := make([]func() bool, len(jobs))
		for i, j := range jobs {
			stops[i] = context.AfterFunc(j.ctx, func() {
				if live.Add(-1) == 0 {
					cancel()
				}
			})
		}
		if k.op == "summary" {
			sums, errs := apsp.SummaryBatch(ctx, graphs, k.opt.apsp())
			for i, j := range jobs {
				if errs[i] != nil {
					j.done <- outcome{err: errs[i]}
				} else {
					j.done <- outcome{res: sums[i]}
				}
			}
		} else {
			apsp.StatsBatchWith(ctx, graphs, k.opt.apsp(), apsp.BatchOptions{
				Ready: func(lo, hi int, stats []*apsp.Stats, errs []error) {
					for i := lo; i < hi; i++ {
						if errs[i-lo] != nil {
							jobs[i].done <- outcome{err: errs[i-lo]}
						} else {
							jobs[i].done <- outcome{res: stats[i-lo]}
						}
					}
				},
			})
		}
		for _, stop := range stops {
			stop()
		}
		cancel()
		b.m.compute.WithLabelValues("batch").Add(time.Since(start).Seconds())
		b.m.computeRun.Dec()
	}
}
