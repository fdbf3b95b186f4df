package gpu

import (
	"testing"

	"github.com/apsp/apsp/internal/gputest"
)

// requireGPU skips without a GPU (CI has none), or fails when
// APSP_REQUIRE_GPU=1 says there must be one.
func requireGPU(t testing.TB) {
	t.Helper()
	if _, err := Devices(); err != nil {
		gputest.Skip(t, "no GPU: %v", err)
	}
}
