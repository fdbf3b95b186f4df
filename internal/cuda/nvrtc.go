package cuda

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"
)

// DriverVersion returns the driver's CUDA version, e.g. 13000.
func (a *API) DriverVersion() int {
	var v int32
	a.cuDriverGetVersion(&v)
	return int(v)
}

// NVRTCVersion returns NVRTC's major.minor (opening NVRTC if it is not
// yet), or the error of opening it.
func (a *API) NVRTCVersion() (string, error) {
	if err := a.loadNVRTC(); err != nil {
		return "", err
	}
	var major, minor int32
	a.nvrtcVersion(&major, &minor)
	return fmt.Sprintf("%d.%d", major, minor), nil
}

// nvrtcID names the NVRTC library for the cubin cache without opening it:
// the file NVRTCPath resolves to, with its size and modification time, so
// that another NVRTC (an upgrade, APSP_LIBNVRTC) compiles afresh.
func (a *API) nvrtcID() string {
	path := a.NVRTCPath
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	fi, err := os.Stat(path)
	if err != nil {
		return path
	}
	return fmt.Sprintf("%s:%d:%d", path, fi.Size(), fi.ModTime().UnixNano())
}

// CacheKey identifies a compiled cubin.
func CacheKey(src, arch string, driver int, nvrtc string, opts []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s\x00", arch, driver, nvrtc, strings.Join(opts, "\x01"))
	h.Write([]byte(src))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// CacheDir is where cubins are kept: $APSP_CACHE_DIR, else the user cache
// directory's apsp/cubin.
func CacheDir() (string, error) {
	if d := os.Getenv("APSP_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "apsp", "cubin"), nil
}

// Compile returns the cubin of src for arch, from the disk cache when it was
// compiled before (cached bool says which). A compile error carries NVRTC's
// log.
func (a *API) Compile(src, name, arch string, opts []string) (cubin []byte, cached bool, err error) {
	key := CacheKey(src, arch, a.DriverVersion(), a.nvrtcID(), opts)
	dir, derr := CacheDir()
	path := ""
	if derr == nil {
		path = filepath.Join(dir, key+".cubin")
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return b, true, nil
		}
	}
	cubin, err = a.compile(src, name, arch, opts)
	if err != nil {
		return nil, false, err
	}
	if path != "" {
		// The cache is an optimisation: failing to write it is not an error.
		if os.MkdirAll(dir, 0o755) == nil {
			tmp := path + fmt.Sprintf(".%d.tmp", os.Getpid())
			if os.WriteFile(tmp, cubin, 0o644) == nil {
				_ = os.Rename(tmp, path)
			}
		}
	}
	return cubin, false, nil
}

func (a *API) compile(src, name, arch string, opts []string) ([]byte, error) {
	if err := a.loadNVRTC(); err != nil {
		return nil, err
	}
	var prog uintptr
	if r := a.nvrtcCreateProgram(&prog, src, name, 0, nil, nil); r != 0 {
		return nil, &NVRTCError{Call: "nvrtcCreateProgram", Code: r}
	}
	defer a.nvrtcDestroyProgram(&prog)
	all := append([]string{"--gpu-architecture=" + arch, "--std=c++17"}, opts...)
	cstrs := make([][]byte, len(all))
	ptrs := make([]*byte, len(all))
	for i, o := range all {
		cstrs[i] = append([]byte(o), 0)
		ptrs[i] = &cstrs[i][0]
	}
	r := a.nvrtcCompileProgram(prog, int32(len(ptrs)), unsafe.Pointer(&ptrs[0]))
	if r != 0 {
		return nil, &NVRTCError{Call: "nvrtcCompileProgram " + name, Code: r, Log: a.log(prog)}
	}
	var size uint64
	if r := a.nvrtcGetCUBINSize(prog, &size); r != 0 {
		return nil, &NVRTCError{Call: "nvrtcGetCUBINSize", Code: r}
	}
	cubin := make([]byte, size)
	if r := a.nvrtcGetCUBIN(prog, &cubin[0]); r != 0 {
		return nil, &NVRTCError{Call: "nvrtcGetCUBIN", Code: r}
	}
	return cubin, nil
}

func (a *API) log(prog uintptr) string {
	var n uint64
	if a.nvrtcGetProgramLogSize(prog, &n) != 0 || n <= 1 {
		return ""
	}
	b := make([]byte, n)
	if a.nvrtcGetProgramLog(prog, &b[0]) != 0 {
		return ""
	}
	return strings.TrimRight(string(b[:n-1]), "\x00\n")
}
