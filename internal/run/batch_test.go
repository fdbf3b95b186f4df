package run

import (
	"fmt"
	"testing"
)

// TestBatchNotice passes each distinct notice on once.
func TestBatchNotice(t *testing.T) {
	var got []string
	b := &batch{callerNotice: func(s string) { got = append(got, s) }}
	for _, s := range []string{"a", "b", "a", "a", "b", "c"} {
		b.notice(s)
	}
	if fmt.Sprint(got) != "[a b c]" {
		t.Fatalf("notices %v", got)
	}
}
