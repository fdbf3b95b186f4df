/* A stand-in for libnccl.so.2 with NCCL's C signatures, built by the tests
 * (when a C compiler is present) to check the purego binding's ABI: the
 * 128-byte ncclUniqueId passed by value, the argument order of the
 * collectives, and error strings. It records the last call's arguments,
 * which the test reads back through fake_get. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char internal[128]; } ncclUniqueId;
typedef struct { int rank, size, id; } comm_t;

static int64_t rec[16];

int64_t fake_get(int i) { return rec[i]; }

int ncclGetVersion(int *v) { *v = 22803; return 0; }

int ncclGetUniqueId(ncclUniqueId *id) {
	for (int i = 0; i < 128; i++) id->internal[i] = (char)(i * 7 + 3);
	return 0;
}

int ncclCommInitRank(comm_t **c, int nranks, ncclUniqueId id, int rank) {
	for (int i = 0; i < 128; i++)
		if (id.internal[i] != (char)(i * 7 + 3)) return 4; /* ncclInvalidArgument */
	if (rank < 0 || rank >= nranks) return 4;
	*c = malloc(sizeof(comm_t));
	(*c)->rank = rank; (*c)->size = nranks; (*c)->id = 1;
	return 0;
}

int ncclCommInitAll(comm_t **cs, int ndev, const int *devs) {
	for (int i = 0; i < ndev; i++) {
		cs[i] = malloc(sizeof(comm_t));
		cs[i]->rank = i; cs[i]->size = ndev; cs[i]->id = 100 + devs[i];
	}
	return 0;
}

int ncclCommSplit(comm_t *c, int color, int key, comm_t **out, void *config) {
	if (config != NULL) return 4;
	rec[8] = color; rec[9] = key;
	*out = malloc(sizeof(comm_t));
	(*out)->rank = key; (*out)->size = c->size + 10; (*out)->id = 2;
	return 0;
}

int ncclCommCount(comm_t *c, int *n) { *n = c->size; return 0; }
int ncclCommUserRank(comm_t *c, int *r) { *r = c->rank; return 0; }
int ncclCommDestroy(comm_t *c) { rec[10] = c->id; free(c); return 0; }
int ncclCommAbort(comm_t *c) { rec[11] = c->id; free(c); return 0; }

int ncclBroadcast(const void *send, void *recv, size_t count, int dtype, int root, comm_t *c, void *stream) {
	rec[0] = (int64_t)(uintptr_t)send; rec[1] = (int64_t)(uintptr_t)recv; rec[2] = (int64_t)count;
	rec[3] = dtype; rec[4] = root; rec[5] = c->id; rec[6] = (int64_t)(uintptr_t)stream;
	return root == 99 ? 5 : 0; /* ncclInvalidUsage on demand */
}

int ncclAllReduce(const void *send, void *recv, size_t count, int dtype, int op, comm_t *c, void *stream) {
	rec[0] = (int64_t)(uintptr_t)send; rec[1] = (int64_t)(uintptr_t)recv; rec[2] = (int64_t)count;
	rec[3] = dtype; rec[7] = op; rec[5] = c->id; rec[6] = (int64_t)(uintptr_t)stream;
	return 0;
}

int ncclGroupStart(void) { rec[12]++; return 0; }
int ncclGroupEnd(void) { rec[13]++; return 0; }

const char *ncclGetErrorString(int r) {
	static char buf[64];
	snprintf(buf, sizeof buf, "fake nccl error %d", r);
	return buf;
}
