package sysmem

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestAvailable(t *testing.T) {
	avail, ok := Available()
	if runtime.GOOS == "linux" && (!ok || avail == 0) {
		t.Fatalf("Available() = %d, %v on linux", avail, ok)
	}
	old := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(old)
	if got, ok := Available(); !ok || got > 1<<20 {
		t.Fatalf("with a 1 MiB limit: %d, %v", got, ok)
	}
}
