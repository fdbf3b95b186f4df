/* bitonic.c: Batcher's bitonic sort of 32 ints in a into ascending order.
 *
 * Oblivious: the compare-exchange network is fixed (it depends on N only);
 * the data-dependent if only chooses whether a[i] and a[l] are swapped. */
#include <stdio.h>
#include <stdlib.h>

#define N 32

int a[N];

/* compare_exchange puts a[i], a[l] in ascending order if up, else descending. */
void compare_exchange(int i, int l, int up)
{
    if ((a[i] > a[l]) == up) {
        int t = a[i];
        a[i] = a[l];
        a[l] = t;
    }
}

void bitonic_sort()
{
    int k, j, i;
    for (k = 2; k <= N; k = k * 2) {
        for (j = k / 2; j > 0; j = j / 2) {
            for (i = 0; i < N; i++) {
                int l = i ^ j;
                if (l > i)
                    compare_exchange(i, l, (i & k) == 0);
            }
        }
    }
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++)
        a[i] = rand();
#pragma kernel
    bitonic_sort();
    for (i = 0; i < N; i++)
        printf("%d\n", a[i]);
    return 0;
}
