/*
 * odpbench: times ODP's ODP_Set_aspl (github.com/mnakao/ODP) on an
 * undirected, unweighted edge list, one call after another, as a
 * Graph Golf search loop would call it. It contains no ODP code: build.sh
 * links it against an ODP checkout (threads or CUDA library).
 *
 *   odpbench FILE [CALLS]
 *
 * FILE is an edge list "u v" per line, 0-based; lines starting with '#'
 * or '%' are comments (apsp gen writes this format). It prints one line:
 * vertices, degree, calls, median/mean/min/max milliseconds per call after
 * three warm-up calls, and ODP's diameter, sum and ASPL for comparison
 * with apsp stats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef ODP_CUDA
/* ODP's CUDA initialiser: ODP_Init_aspl_cuda_general in older versions,
 * ODP_Init_aspl_general (the CPU's name) in newer ones; build.sh picks. */
#ifndef ODP_CUDA_INIT
#define ODP_CUDA_INIT ODP_Init_aspl_cuda_general
#endif
extern void ODP_CUDA_INIT(int nodes, int degree, int *num_degrees);
#else
extern void ODP_Init_aspl_general(int nodes, int degree, int *num_degrees);
#endif
extern void ODP_Set_aspl(const int *adjacency, int *diameter, long *sum, double *ASPL);
extern void ODP_Finalize_aspl(void);

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: odpbench FILE [CALLS]\n");
		return 2;
	}
	int calls = argc > 2 ? atoi(argv[2]) : 0;
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	size_t cap = 1 << 16, m = 0;
	int *eu = malloc(cap * sizeof(int)), *ev = malloc(cap * sizeof(int));
	char line[256];
	int nodes = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || line[0] == '%' || line[0] == '\n')
			continue;
		int u, v;
		if (sscanf(line, "%d %d", &u, &v) != 2) {
			fprintf(stderr, "bad line: %s", line);
			return 1;
		}
		if (m == cap) {
			cap *= 2;
			eu = realloc(eu, cap * sizeof(int));
			ev = realloc(ev, cap * sizeof(int));
		}
		eu[m] = u;
		ev[m] = v;
		m++;
		if (u + 1 > nodes)
			nodes = u + 1;
		if (v + 1 > nodes)
			nodes = v + 1;
	}
	fclose(f);
	int *deg = calloc(nodes, sizeof(int));
	for (size_t i = 0; i < m; i++) {
		deg[eu[i]]++;
		deg[ev[i]]++;
	}
	int degree = 0, regular = 1;
	for (int i = 0; i < nodes; i++) {
		if (deg[i] > degree)
			degree = deg[i];
		if (deg[i] != deg[0])
			regular = 0;
	}
	/* ODP's adjacency: int[nodes][degree], a row per vertex. */
	int *adj = malloc((size_t)nodes * degree * sizeof(int));
	int *fill = calloc(nodes, sizeof(int));
	for (size_t i = 0; i < (size_t)nodes * degree; i++)
		adj[i] = -1;
	for (size_t i = 0; i < m; i++) {
		adj[(size_t)eu[i] * degree + fill[eu[i]]++] = ev[i];
		adj[(size_t)ev[i] * degree + fill[ev[i]]++] = eu[i];
	}
	int *nd = regular ? NULL : deg;
#ifdef ODP_CUDA
	ODP_CUDA_INIT(nodes, degree, nd);
#else
	ODP_Init_aspl_general(nodes, degree, nd);
#endif
	int diameter = 0;
	long sum = 0;
	double aspl = 0;
	for (int i = 0; i < 3; i++)
		ODP_Set_aspl(adj, &diameter, &sum, &aspl);
	/* Without a count, as many calls as fit in about two seconds (5..1000). */
	if (calls <= 0) {
		double t = now();
		ODP_Set_aspl(adj, &diameter, &sum, &aspl);
		double one = now() - t;
		calls = (int)(2.0 / (one > 1e-9 ? one : 1e-9));
		calls = calls < 5 ? 5 : calls > 1000 ? 1000 : calls;
	}
	double *ms = malloc(calls * sizeof(double));
	for (int i = 0; i < calls; i++) {
		double t = now();
		ODP_Set_aspl(adj, &diameter, &sum, &aspl);
		ms[i] = (now() - t) * 1e3;
	}
	double total = 0;
	for (int i = 0; i < calls; i++)
		total += ms[i];
	qsort(ms, calls, sizeof(double), cmp);
	printf("odpbench %s vertices=%d degree=%d regular=%d calls=%d median_ms=%.4f mean_ms=%.4f min_ms=%.4f max_ms=%.4f diameter=%d sum=%ld aspl=%.10f\n",
	       argv[1], nodes, degree, regular, calls, ms[calls / 2], total / calls, ms[0], ms[calls - 1], diameter, sum, aspl);
	ODP_Finalize_aspl();
	return 0;
}
