/* floyd.c: Floyd-Warshall all-pairs shortest distances of a 16-node directed
 * graph given as a 16x16 distance matrix d (the seeds' Fig. 4.6, with int
 * weights). After floyd(), d[i][j] is the distance from i to j.
 *
 * Oblivious: the addresses touched depend only on i, j, k; the
 * data-dependent if only chooses whether d[i][j] is written.
 * Build alone: cc -O2 floyd.c; bulk execution: apsp c2cu gen floyd.c */
#include <stdio.h>
#include <stdlib.h>

#define N 16

int d[N][N];

void update_dist(int i, int j, int k)
{
    if (d[i][k] + d[k][j] < d[i][j]) {
        d[i][j] = d[i][k] + d[k][j];
    }
}

void floyd()
{
    int i, j, k;
    for (k = 0; k < N; k++) {
        for (i = 0; i < N; i++) {
            for (j = 0; j < N; j++) {
                update_dist(i, j, k);
            }
        }
    }
}

int main(int argc, char *argv[])
{
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            d[i][j] = i == j ? 0 : rand() % 1000;
#pragma kernel
    floyd();
    printf("d[0][%d] = %d\n", N - 1, d[0][N - 1]);
    return 0;
}
