/* prefix.c: prefix sums of 1024 ints: afterwards b[i] = b[0] + ... + b[i]
 * (the seeds' running example of an oblivious algorithm, Sec. 4.2).
 *
 * Oblivious: read b[0], write b[0], read b[1], write b[1], ... whatever
 * the values; the running sum r lives in a register. */
#include <stdio.h>
#include <stdlib.h>

#define N 1024

int b[N];

void prefix_sums()
{
    int i;
    int r = 0;
    for (i = 0; i < N; i++) {
        r += b[i];
        b[i] = r;
    }
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++)
        b[i] = rand() % 100;
#pragma kernel
    prefix_sums();
    printf("%d\n", b[N - 1]);
    return 0;
}
