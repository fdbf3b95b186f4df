package mpi

import "fmt"

// errorNames are Open MPI's error classes (mpi.h of Open MPI 4: MPI_SUCCESS
// 0, MPI_ERR_BUFFER 1, …, MPI_ERR_REQUEST 7, MPI_ERR_ROOT 8, …
// MPI_ERR_PENDING 19; MPICH numbers some of them differently).
var errorNames = [...]string{
	"MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG",
	"MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP",
	"MPI_ERR_OP", "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN",
	"MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING",
}

// ErrorName names an error class without the library.
func ErrorName(code int32) string {
	if code >= 0 && int(code) < len(errorNames) {
		return errorNames[code]
	}
	return fmt.Sprintf("MPI_ERR_%d", code)
}

// Error is a failed MPI call: the class's name and the library's message.
type Error struct {
	Call   string
	Code   int32
	Detail string
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s: %s (%d): %s", e.Call, ErrorName(e.Code), e.Code, e.Detail)
	}
	return fmt.Sprintf("%s: %s (%d)", e.Call, ErrorName(e.Code), e.Code)
}

// check turns a return code into an error with MPI_Error_string's text
// when the library is loaded.
func (a *API) check(call string, code int32) error {
	if code == 0 {
		return nil
	}
	e := &Error{Call: call, Code: code}
	if a != nil && a.errorString != nil {
		var buf [maxErrorString + 1]byte
		var n int32
		if a.errorString(code, &buf[0], &n) == 0 && n > 0 && int(n) <= len(buf) {
			e.Detail = string(buf[:n])
		}
	}
	return e
}
