/* montgomery.c: 512-bit Montgomery modular multiplication
 * Z = X * Y * 2^-512 mod M with 16 little-endian 32-bit limbs per number
 * (CIOS method; the seeds' Sec. 4.4 third benchmark).
 *
 * M is made odd (M[0] |= 1) so that the inverse exists. For X, Y < M the
 * result is the fully reduced Z < M; for other inputs Z is still
 * deterministic (what the CPU/GPU comparison needs).
 *
 * Oblivious: every loop runs a fixed number of times and the final
 * subtraction is always computed; a data-dependent if only chooses whether
 * Z[j] is overwritten with T[j]. */
#include <stdio.h>
#include <stdlib.h>

#define S 16 /* limbs */

unsigned X[S], Y[S], M[S];
unsigned Z[S];
unsigned T[S + 2]; /* scratch: local arrays are not in the C2CU subset */

/* neg_inverse returns -m0^-1 mod 2^32 for odd m0 (Newton iteration: each
 * step doubles the number of correct low bits, 3 -> 48). */
unsigned neg_inverse(unsigned m0)
{
    unsigned x = m0;
    int i;
    for (i = 0; i < 4; i++)
        x = x * (2u - m0 * x);
    return 0u - x;
}

void montgomery()
{
    int i, j;
    unsigned long t;
    unsigned carry, m, mp, borrow, top;

    M[0] = M[0] | 1u;
    mp = neg_inverse(M[0]);
    for (j = 0; j < S + 2; j++)
        T[j] = 0u;
    for (i = 0; i < S; i++) {
        /* T += X * Y[i] */
        carry = 0u;
        for (j = 0; j < S; j++) {
            t = (unsigned long)T[j] + (unsigned long)X[j] * Y[i] + carry;
            T[j] = (unsigned)t;
            carry = (unsigned)(t >> 32);
        }
        t = (unsigned long)T[S] + carry;
        T[S] = (unsigned)t;
        T[S + 1] = (unsigned)(t >> 32);
        /* T = (T + m * M) / 2^32 with m chosen so that the low limb is 0 */
        m = T[0] * mp;
        t = (unsigned long)T[0] + (unsigned long)m * M[0];
        carry = (unsigned)(t >> 32);
        for (j = 1; j < S; j++) {
            t = (unsigned long)T[j] + (unsigned long)m * M[j] + carry;
            T[j - 1] = (unsigned)t;
            carry = (unsigned)(t >> 32);
        }
        t = (unsigned long)T[S] + carry;
        T[S - 1] = (unsigned)t;
        T[S] = T[S + 1] + (unsigned)(t >> 32);
    }
    /* Z = T - M, then keep T instead if T < M */
    borrow = 0u;
    for (j = 0; j < S; j++) {
        t = (unsigned long)T[j] - M[j] - borrow;
        Z[j] = (unsigned)t;
        borrow = (unsigned)(t >> 63);
    }
    top = T[S];
    for (j = 0; j < S; j++) {
        if (top == 0u && borrow != 0u)
            Z[j] = T[j];
    }
}

int main(void)
{
    int j;
    for (j = 0; j < S; j++) {
        X[j] = (unsigned)rand();
        Y[j] = (unsigned)rand();
        M[j] = (unsigned)rand() | 0x80000000u;
    }
#pragma kernel
    montgomery();
    for (j = S - 1; j >= 0; j--)
        printf("%08x", Z[j]);
    printf("\n");
    return 0;
}
