package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBar(t *testing.T) {
	var nilBar *Bar
	nilBar.Update(0.5) // a disabled bar is nil and must be safe
	nilBar.Done()
	if New(&bytes.Buffer{}, "x", false) != nil {
		t.Fatal("a disabled bar must be nil")
	}
	var b bytes.Buffer
	bar := New(&b, "stats", true)
	bar.Update(0.5)
	if b.Len() != 0 {
		t.Fatal("drew before the first second")
	}
	bar.start = time.Now().Add(-2 * time.Second) // as if the work ran for 2 s
	bar.Update(0.5)
	if !strings.Contains(b.String(), "stats [") || !strings.Contains(b.String(), "50%") {
		t.Fatalf("bar %q", b.String())
	}
	bar.Done()
	if !strings.HasSuffix(b.String(), "\r") {
		t.Fatal("Done did not clear the line")
	}
	if IsTerminal(&b) {
		t.Fatal("a buffer is not a terminal")
	}
}
