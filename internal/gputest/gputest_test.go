package gputest

import (
	"testing"
)

func TestRequired(t *testing.T) {
	for _, c := range []struct {
		v    string
		want bool
	}{{"", false}, {"0", false}, {"true", false}, {"1", true}} {
		t.Setenv(Env, c.v)
		if got := Required(); got != c.want {
			t.Errorf("%s=%q: Required() = %v, want %v", Env, c.v, got, c.want)
		}
	}
}

// fakeTB records what Skip does to a test.
type fakeTB struct {
	testing.TB
	skipped, failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Skipf(string, ...any)  { f.skipped = true }
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }

func TestSkip(t *testing.T) {
	t.Setenv(Env, "")
	f := &fakeTB{}
	Skip(f, "no GPU: %v", "none")
	if !f.skipped || f.failed {
		t.Errorf("without %s: skipped %v failed %v, want a skip", Env, f.skipped, f.failed)
	}
	t.Setenv(Env, "1")
	f = &fakeTB{}
	Skip(f, "no GPU: %v", "none")
	if f.skipped || !f.failed {
		t.Errorf("with %s=1: skipped %v failed %v, want a failure", Env, f.skipped, f.failed)
	}
}
