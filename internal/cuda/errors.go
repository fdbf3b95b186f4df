package cuda

import (
	"errors"
	"fmt"
)

// Result is a CUDA driver return code.
type Result int32

// NVRTCResult is an NVRTC return code.
type NVRTCResult int32

// resultNames names the driver codes apsp is likely to meet, for the case
// where cuGetErrorName itself is unavailable.
var resultNames = map[Result]string{
	0: "CUDA_SUCCESS", 1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY",
	3: "CUDA_ERROR_NOT_INITIALIZED", 4: "CUDA_ERROR_DEINITIALIZED", 100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE", 200: "CUDA_ERROR_INVALID_IMAGE", 201: "CUDA_ERROR_INVALID_CONTEXT",
	209: "CUDA_ERROR_NO_BINARY_FOR_GPU", 218: "CUDA_ERROR_INVALID_PTX", 222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	300: "CUDA_ERROR_INVALID_SOURCE", 301: "CUDA_ERROR_FILE_NOT_FOUND", 400: "CUDA_ERROR_INVALID_HANDLE",
	500: "CUDA_ERROR_NOT_FOUND", 600: "CUDA_ERROR_NOT_READY", 700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 702: "CUDA_ERROR_LAUNCH_TIMEOUT", 719: "CUDA_ERROR_LAUNCH_FAILED",
	720: "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", 999: "CUDA_ERROR_UNKNOWN",
}

var nvrtcNames2 = map[NVRTCResult]string{
	0: "NVRTC_SUCCESS", 1: "NVRTC_ERROR_OUT_OF_MEMORY", 2: "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
	3: "NVRTC_ERROR_INVALID_INPUT", 4: "NVRTC_ERROR_INVALID_PROGRAM", 5: "NVRTC_ERROR_INVALID_OPTION",
	6: "NVRTC_ERROR_COMPILATION", 7: "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
	11: "NVRTC_ERROR_INTERNAL_ERROR",
}

// Error is a failed driver call.
type Error struct {
	Call string
	Code Result
	Name string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s (%d)", e.Call, e.Name, int32(e.Code)) }

// NVRTCError is a failed NVRTC call; Log holds the compiler's log.
type NVRTCError struct {
	Call string
	Code NVRTCResult
	Log  string
}

func (e *NVRTCError) Error() string {
	name := nvrtcNames2[e.Code]
	if name == "" {
		name = "NVRTC_ERROR"
	}
	if e.Log != "" {
		return fmt.Sprintf("%s: %s (%d):\n%s", e.Call, name, int32(e.Code), e.Log)
	}
	return fmt.Sprintf("%s: %s (%d)", e.Call, name, int32(e.Code))
}

// ResultName names a driver code without a driver.
func ResultName(r Result) string {
	if n, ok := resultNames[r]; ok {
		return n
	}
	return fmt.Sprintf("CUDA_ERROR_%d", int32(r))
}

// check turns a driver code into an error named by the driver.
func (a *API) check(call string, r Result) error {
	if r == 0 {
		return nil
	}
	name := ResultName(r)
	if a != nil && a.cuGetErrorName != nil {
		var p *byte
		if a.cuGetErrorName(r, &p) == 0 && p != nil {
			name = cString(p)
		}
	}
	return &Error{Call: call, Code: r, Name: name}
}

// Sticky reports whether err is a driver error that leaves its context
// unusable (an illegal address or a failed launch, say): every later call
// in that context fails too, so the context must be destroyed and made
// anew.
func Sticky(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case 700, 702, 714, 715, 716, 717, 718, 719:
		return true
	}
	return false
}
