package comm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// runRanks runs body on every rank of a fresh fake, each in a goroutine,
// and returns the ranks' errors.
func runRanks(t *testing.T, size int, body func(c Comm) error) []error {
	t.Helper()
	ranks, err := NewFake(size)
	if err != nil {
		t.Fatal(err)
	}
	errs := make([]error, size)
	var wg sync.WaitGroup
	for r, c := range ranks {
		wg.Go(func() { errs[r] = body(c) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("ranks still waiting after 10 s: a collective hangs")
	}
	return errs
}

func TestFakeCollectives(t *testing.T) {
	ctx := context.Background()
	for _, size := range []int{1, 2, 3, 6} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			errs := runRanks(t, size, func(c Comm) error {
				if c.Size() != size {
					return fmt.Errorf("size %d", c.Size())
				}
				// Bcast from every root in turn.
				for root := range size {
					buf := make([]int32, 5)
					if c.Rank() == root {
						for i := range buf {
							buf[i] = int32(100*root + i)
						}
					}
					if err := c.Bcast(ctx, HostBuffer(buf), root); err != nil {
						return err
					}
					for i, v := range buf {
						if v != int32(100*root+i) {
							return fmt.Errorf("rank %d: Bcast from %d: got %v", c.Rank(), root, buf)
						}
					}
				}
				sums := []int64{int64(c.Rank()), 1, -2}
				if err := c.AllReduceSum(ctx, HostBuffer(sums)); err != nil {
					return err
				}
				if want := []int64{int64(size * (size - 1) / 2), int64(size), int64(-2 * size)}; fmt.Sprint(sums) != fmt.Sprint(want) {
					return fmt.Errorf("rank %d: AllReduceSum %v, want %v", c.Rank(), sums, want)
				}
				// Split by parity, keyed by descending rank.
				sub, err := c.Split(ctx, c.Rank()%2, -c.Rank())
				if err != nil {
					return err
				}
				members := (size + 1 - c.Rank()%2) / 2
				if sub.Size() != members {
					return fmt.Errorf("rank %d: sub-communicator of %d, want %d", c.Rank(), sub.Size(), members)
				}
				// Descending keys: the highest rank of the color is 0.
				if want := (size - 1 - c.Rank()) / 2; sub.Rank() != want {
					return fmt.Errorf("rank %d: sub rank %d, want %d", c.Rank(), sub.Rank(), want)
				}
				v := []int64{1}
				if err := sub.AllReduceSum(ctx, HostBuffer(v)); err != nil {
					return err
				}
				if v[0] != int64(members) {
					return fmt.Errorf("rank %d: sub sum %d, want %d", c.Rank(), v[0], members)
				}
				return c.Barrier(ctx)
			})
			for r, err := range errs {
				if err != nil {
					t.Errorf("rank %d: %v", r, err)
				}
			}
		})
	}
}

// TestFakeFailures: a mismatched collective, an aborting rank and a
// cancelled context each end every rank with an error wrapping ErrAborted
// that says why, and nobody waits forever.
func TestFakeFailures(t *testing.T) {
	boom := errors.New("out of device memory")
	tests := []struct {
		name string
		body func(c Comm) error
		want string
	}{
		{"length mismatch", func(c Comm) error {
			return c.Bcast(context.Background(), HostBuffer(make([]int64, 1+c.Rank())), 0)
		}, "collective mismatch"},
		{"op mismatch", func(c Comm) error {
			if c.Rank() == 2 {
				return c.Barrier(context.Background())
			}
			return c.AllReduceSum(context.Background(), HostBuffer([]int64{1}))
		}, "rank 2 Barrier"},
		{"one rank aborts", func(c Comm) error {
			if c.Rank() == 1 {
				c.Abort(boom)
				return nil
			}
			return c.Barrier(context.Background())
		}, "rank 1: out of device memory"},
		{"one rank's context cancelled", func(c Comm) error {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.Rank() == 0 {
				cancel()
			}
			if err := c.Barrier(ctx); err != nil {
				return err
			}
			return c.Barrier(context.Background())
		}, "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := runRanks(t, 3, tt.body)
			failed := 0
			for r, err := range errs {
				if err == nil {
					continue
				}
				failed++
				if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("rank %d: %v, want ErrAborted and %q", r, err, tt.want)
				}
			}
			if failed < 2 {
				t.Errorf("only %d ranks failed: %v", failed, errs)
			}
		})
	}
}

func TestBuffers(t *testing.T) {
	if b := HostBuffer([]int32{1, 2, 3}); b.Len() != 12 {
		t.Errorf("HostBuffer of 3 int32: %d bytes", b.Len())
	}
	if b := HostBuffer([]float64(nil)); b.Host == nil || b.Len() != 0 {
		t.Errorf("an empty slice must give an empty host buffer, got %+v", b)
	}
	if b := DeviceBuffer(0x1000, 64); b.Len() != 64 || b.Host != nil {
		t.Errorf("DeviceBuffer: %+v", b)
	}
	ranks, _ := NewFake(1)
	if err := ranks[0].Bcast(context.Background(), DeviceBuffer(0x1000, 8), 0); err == nil {
		t.Error("the fake must refuse device memory")
	}
	if _, err := NewFake(0); err == nil {
		t.Error("NewFake(0) must fail")
	}
}
