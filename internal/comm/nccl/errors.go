package nccl

import "fmt"

// Result is an ncclResult_t.
type Result int32

// resultNames are the ncclResult_t values (NCCL user guide, api/types.html:
// ncclSuccess 0 … ncclInProgress 7), for messages when the library's own
// ncclGetErrorString is not at hand.
var resultNames = [...]string{
	"ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
	"ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
}

// ResultName names a result code without the library.
func ResultName(r Result) string {
	if r >= 0 && int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("ncclResult(%d)", int32(r))
}

// Error is a failed NCCL call: the code's name and NCCL's own description.
type Error struct {
	Call   string
	Code   Result
	Detail string
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s: %s (%d): %s", e.Call, ResultName(e.Code), int32(e.Code), e.Detail)
	}
	return fmt.Sprintf("%s: %s (%d)", e.Call, ResultName(e.Code), int32(e.Code))
}

// Remote reports whether the failure came from another rank or the
// network (ncclRemoteError), rather than from this rank's arguments.
func (e *Error) Remote() bool { return e.Code == 6 }

// check turns a result into an error with NCCL's description when the
// library is loaded.
func (a *API) check(call string, r Result) error {
	if r == 0 {
		return nil
	}
	e := &Error{Call: call, Code: r}
	if a != nil && a.getErrorString != nil {
		e.Detail = a.getErrorString(r)
	}
	return e
}
