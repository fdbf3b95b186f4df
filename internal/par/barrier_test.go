package par

import (
	"testing"
)

// TestBarrierPhases runs teams through many phases of a barrier: in each
// phase every worker adds to its own counter, and the action, run once a
// phase by the last arrival, checks that every worker has added (so no
// worker ran ahead into the next phase) and records the phase.
func TestBarrierPhases(t *testing.T) {
	for _, size := range []int{1, 2, 3, 7} {
		team := NewTeam(size, DefaultSpin)
		bar := NewBarrier(size)
		const phases = 500
		counts := make([]int, size)
		actions := 0
		var bad []string
		team.Run(func(k int) {
			for p := 1; p <= phases; p++ {
				counts[k]++
				ok := bar.Wait(func() {
					actions++
					for _, c := range counts {
						if c != p {
							bad = append(bad, "a worker behind or ahead of the phase")
						}
					}
				})
				if !ok {
					bad = append(bad, "barrier broken")
					return
				}
			}
		})
		team.Close()
		if len(bad) > 0 {
			t.Fatalf("size %d: %s", size, bad[0])
		}
		if actions != phases {
			t.Fatalf("size %d: %d actions, want %d", size, actions, phases)
		}
	}
}

// TestBarrierBreak checks that a broken barrier releases the goroutines
// waiting at it and every later arrival, and runs no action.
func TestBarrierBreak(t *testing.T) {
	team := NewTeam(4, DefaultSpin)
	defer team.Close()
	bar := NewBarrier(4)
	results := make([]bool, 4)
	ran := false
	team.Run(func(k int) {
		if k == 3 {
			bar.Break() // worker 3 never arrives
			return
		}
		results[k] = bar.Wait(func() { ran = true })
	})
	for k := range 3 {
		if results[k] {
			t.Fatalf("worker %d: Wait reported true at a broken barrier", k)
		}
	}
	if ran {
		t.Fatal("a broken barrier ran its action")
	}
	if bar.Wait(nil) {
		t.Fatal("a later Wait at a broken barrier reported true")
	}
}
