/* A stand-in for Open MPI's libmpi.so.40, built by the tests (when a C
 * compiler is present) to check the purego binding's ABI: handles are the
 * addresses of the exported ompi_* objects (Open MPI's mpi.h:
 * OMPI_PREDEFINED_GLOBAL(type, global) is ((type) &(global))), MPI_IN_PLACE
 * is (void *) 1, and errors come back with MPI_Error_string's text. The
 * fake plays rank 1 of 3: a broadcast from another root fills the buffer
 * with a pattern, a sum triples every value. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

char ompi_mpi_comm_world[512], ompi_mpi_byte[512], ompi_mpi_int64_t[512],
	ompi_mpi_op_sum[512], ompi_mpi_op_max[512], ompi_mpi_errors_return[512];
static char split_comm[512];
static int initialized, errh_set, freed;

int64_t fake_get(int i) {
	switch (i) {
	case 0: return initialized;
	case 1: return errh_set;
	case 2: return freed;
	}
	return -1;
}

static int known(void *c) { return c == ompi_mpi_comm_world || c == split_comm; }

int MPI_Initialized(int *flag) { *flag = initialized; return 0; }
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
	if (argc != NULL || argv != NULL) return 13; /* MPI_ERR_ARG */
	initialized = 1; *provided = required; return 0;
}
static int finalized;
int MPI_Finalize(void) { initialized = 0; finalized = 1; return 0; }
int MPI_Finalized(int *flag) { *flag = finalized; return 0; }
int MPI_Comm_rank(void *c, int *r) { if (!known(c)) return 5; *r = c == split_comm ? 0 : 1; return 0; }
int MPI_Comm_size(void *c, int *n) { if (!known(c)) return 5; *n = c == split_comm ? 2 : 3; return 0; }
int MPI_Comm_split(void *c, int color, int key, void **out) {
	if (c != ompi_mpi_comm_world) return 5; /* MPI_ERR_COMM */
	if (color < 0) return 13;
	*out = split_comm; return 0;
}
int MPI_Comm_free(void **c) { if (*c != split_comm) return 5; freed++; *c = NULL; return 0; }
int MPI_Comm_set_errhandler(void *c, void *e) {
	if (!known(c) || e != ompi_mpi_errors_return) return 5;
	errh_set++; return 0;
}
int MPI_Bcast(void *buf, int count, void *dtype, int root, void *c) {
	if (!known(c)) return 5;
	if (dtype != ompi_mpi_byte) return 3; /* MPI_ERR_TYPE */
	if (root == 7) return 8;              /* MPI_ERR_ROOT */
	if (root != 1)
		for (int i = 0; i < count; i++) ((unsigned char *)buf)[i] = (unsigned char)(i + root);
	return 0;
}
int MPI_Allreduce(const void *send, void *recv, int count, void *dtype, void *op, void *c) {
	if (!known(c)) return 5;
	if (send != (void *)1) return 1; /* MPI_ERR_BUFFER: want MPI_IN_PLACE */
	if (dtype != ompi_mpi_int64_t) return 3;
	if (op == ompi_mpi_op_max) { /* the other two ranks hold 5 */
		for (int i = 0; i < count; i++)
			if (((int64_t *)recv)[i] < 5) ((int64_t *)recv)[i] = 5;
		return 0;
	}
	if (op != ompi_mpi_op_sum) return 10; /* MPI_ERR_OP */
	for (int i = 0; i < count; i++) ((int64_t *)recv)[i] *= 3;
	return 0;
}
int MPI_Barrier(void *c) { return known(c) ? 0 : 5; }
int MPI_Abort(void *c, int code) { return 0; }
int MPI_Error_string(int code, char *s, int *n) {
	*n = snprintf(s, 256, "fake mpi error %d", code);
	return 0;
}
