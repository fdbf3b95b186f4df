package serve

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the HTTP service's Prometheus series, registered in a
// registry of its own (no global state): GET /metrics serves it.
type metrics struct {
	reg *prometheus.Registry

	requests   *prometheus.CounterVec   // by route and status code
	latency    *prometheus.HistogramVec // by route: seconds from the request to its answer
	graphs     *prometheus.CounterVec   // graphs answered, by route
	inflight   prometheus.Gauge         // requests admitted and not yet answered
	queued     prometheus.Gauge         // graphs waiting for a batch or a worker
	batchSize  prometheus.Histogram     // graphs a batch computed
	compute    *prometheus.CounterVec   // seconds spent computing, by path (batch, alone)
	rejected   *prometheus.CounterVec   // requests refused before computing, by reason
	cancelled  prometheus.Counter       // requests whose client went away or whose time ran out
	dropped    prometheus.Counter       // batched graphs dropped before their batch started
	computeRun prometheus.Gauge         // computations running now (batches and alone)
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apsp_http_requests_total", Help: "HTTP requests answered, by route and status code.",
	}, []string{"route", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "apsp_http_request_duration_seconds",
		Help:    "Time from a request's arrival to its answer, by route.",
		Buckets: prometheus.ExponentialBuckets(0.0001, 2, 20), // 0.1 ms to 52 s
	}, []string{"route"})
	m.graphs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apsp_http_graphs_total", Help: "Graphs answered (a bulk request counts each line), by route.",
	}, []string{"route"})
	m.inflight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "apsp_http_inflight_requests", Help: "Requests admitted and not yet answered (the bounded queue's use).",
	})
	m.queued = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "apsp_http_queue_depth", Help: "Graphs waiting for a batch or a worker.",
	})
	m.batchSize = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "apsp_http_batch_graphs",
		Help:    "Graphs computed by one batch call.",
		Buckets: prometheus.ExponentialBuckets(1, 2, 14), // 1 to 8192
	})
	m.compute = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apsp_http_compute_seconds_total", Help: "Seconds spent in computations, by path: batch (batched graphs) or alone.",
	}, []string{"path"})
	m.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apsp_http_rejected_total", Help: "Requests refused before computing, by reason (busy, unauthorized, limit).",
	}, []string{"reason"})
	m.cancelled = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "apsp_http_cancelled_total", Help: "Requests whose client went away or whose --timeout ran out.",
	})
	m.dropped = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "apsp_http_batch_dropped_total", Help: "Batched graphs dropped before their batch started (request cancelled).",
	})
	m.computeRun = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "apsp_http_computing", Help: "Computations running now (batches and graphs computed alone).",
	})
	m.reg.MustRegister(m.requests, m.latency, m.graphs, m.inflight, m.queued, m.batchSize,
		m.compute, m.rejected, m.cancelled, m.dropped, m.computeRun,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
