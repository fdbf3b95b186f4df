// Package gputest is how a test that needs a GPU gets out of the way where
// there is none, such as CI: it skips, unless APSP_REQUIRE_GPU says this
// machine has one, in which case a missing driver or device is a failure.
// The scripts that run the tests on GPU machines (scripts/*.sh) set
// APSP_REQUIRE_GPU=1, so a GPU test cannot pass there by skipping.
package gputest

import (
	"os"
	"testing"
)

// Env is the variable that turns skips into failures.
const Env = "APSP_REQUIRE_GPU"

// Required reports whether Env is "1", as on the GPU machines.
func Required() bool { return os.Getenv(Env) == "1" }

// Skip skips t for want of a GPU, giving the reason, or fails it when
// Required. Call it where the test finds no driver or device.
func Skip(t testing.TB, format string, args ...any) {
	t.Helper()
	if Required() {
		t.Fatalf(Env+"=1 but no GPU: "+format, args...)
		return
	}
	t.Skipf(format, args...)
}

// NotALibrary returns the path of a shared library that is neither the
// CUDA driver nor NVRTC (the C maths library), for tests of loading the
// wrong library, or "" where none is found.
func NotALibrary() string {
	for _, p := range []string{"/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6", "/lib64/libm.so.6", "/usr/lib64/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}
