// Package progress draws a one-line progress bar on a terminal for work that
// lasts longer than about a second.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Bar is a progress bar. Update may be called from many goroutines. A nil
// *Bar is valid and draws nothing.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	start time.Time
	last  time.Time
	drawn bool
	delay time.Duration
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// New returns a bar drawing on w after the first second of work, or nil when
// disabled.
func New(w io.Writer, label string, enabled bool) *Bar {
	if !enabled {
		return nil
	}
	now := time.Now()
	return &Bar{w: w, label: label, start: now, delay: time.Second}
}

// Update draws the bar at fraction done (0..1), at most ten times a second.
func (b *Bar) Update(done float64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	if now.Sub(b.start) < b.delay || now.Sub(b.last) < 100*time.Millisecond {
		return
	}
	b.last = now
	done = min(max(done, 0), 1)
	const width = 30
	full := int(done * width)
	elapsed := now.Sub(b.start)
	eta := ""
	if done > 0.01 {
		left := time.Duration(float64(elapsed) * (1 - done) / done)
		eta = " eta " + left.Round(time.Second).String()
	}
	fmt.Fprintf(b.w, "\r%s [%s%s] %3.0f%% %s%s ", b.label, strings.Repeat("=", full), strings.Repeat(" ", width-full),
		done*100, elapsed.Round(time.Second), eta)
	b.drawn = true
}

// Done erases the bar if it was drawn.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", 80))
		b.drawn = false
	}
}
