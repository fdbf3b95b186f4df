package comm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrRankFailed is wrapped by Agree's error, on every rank, when some rank
// came to it with an error.
var ErrRankFailed = errors.New("a rank failed")

// RankError is the failure Agree reports on every rank alike: the first
// failing rank's message, and how many ranks failed. On a failing rank it
// also wraps that rank's own error.
type RankError struct {
	Rank, Failed, Size int
	Msg                string
	Err                error // this rank's own error, or nil
}

func (e *RankError) Error() string {
	s := fmt.Sprintf("rank %d of %d: %s", e.Rank, e.Size, e.Msg)
	if e.Failed > 1 {
		s += fmt.Sprintf(" (%d ranks failed)", e.Failed)
	}
	return s
}

// Unwrap gives ErrRankFailed and, on a failing rank, its own error.
func (e *RankError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrRankFailed}
	}
	return []error{ErrRankFailed, e.Err}
}

// agreeMsgBytes bounds the message that travels from the failing rank.
const agreeMsgBytes = 1024

// Agree is a collective checkpoint: every rank passes its error so far (or
// nil), and either every rank gets nil or every rank gets a *RankError
// with the lowest failing rank's message. A rank that fails alone before
// a collective would leave the others waiting in it for ever; calling
// Agree first, with the failure, lets every rank stop together. An error
// of the communicator itself is returned as it is, joined with err.
func Agree(ctx context.Context, c Comm, err error) error {
	flags := make([]int64, c.Size())
	if err != nil {
		flags[c.Rank()] = 1
	}
	if cerr := c.AllReduceSum(ctx, HostBuffer(flags)); cerr != nil {
		return errors.Join(err, cerr)
	}
	first, failed := -1, 0
	for r, f := range flags {
		if f != 0 {
			failed++
			if first < 0 {
				first = r
			}
		}
	}
	if first < 0 {
		return nil
	}
	msg := make([]byte, agreeMsgBytes)
	if first == c.Rank() {
		text := err.Error()
		if len(text) > agreeMsgBytes {
			// Cut on a rune boundary, marked.
			cut := agreeMsgBytes - len("…")
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut] + "…"
		}
		copy(msg, text)
	}
	if cerr := c.Bcast(ctx, HostBuffer(msg), first); cerr != nil {
		return errors.Join(err, cerr)
	}
	return &RankError{Rank: first, Failed: failed, Size: c.Size(), Msg: string(bytes.TrimRight(msg, "\x00")), Err: err}
}
