package prebuilt

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

//go:embed cubins
var files embed.FS

// Entry is one prebuilt module: its key, the architecture it is for
// ("sm_90"), the kernel file it was compiled from ("fw.cu") and the
// options it was compiled with.
type Entry struct {
	Key  string   `json:"key"`
	Arch string   `json:"arch"`
	File string   `json:"file"`
	Opts []string `json:"opts"`
}

// Key identifies a module: its source, architecture and options.
func Key(src, arch string, opts []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", arch, strings.Join(opts, "\x01"))
	h.Write([]byte(src))
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// manifestFile lists the entries.
const manifestFile = "cubins/manifest.json"

// Entries returns the prebuilt modules, or an error when the manifest is
// malformed.
var Entries = sync.OnceValues(func() ([]Entry, error) {
	b, err := files.ReadFile(manifestFile)
	if err != nil {
		return nil, err
	}
	var es []Entry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("prebuilt: %s: %w", manifestFile, err)
	}
	return es, nil
})

// path is where an entry's gzipped cubin is embedded.
func path(arch, key string) string { return "cubins/" + arch + "/" + key + ".cubin.gz" }

// Lookup returns the cubin of src compiled for arch with opts, or nil when
// none was built ahead (or it cannot be read).
func Lookup(src, arch string, opts []string) []byte {
	f, err := files.Open(path(arch, Key(src, arch, opts)))
	if err != nil {
		return nil
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil
	}
	return b
}

// RecordEnv names the directory that Record writes to.
const RecordEnv = "APSP_PREBUILT_RECORD"

// Record writes, when $APSP_PREBUILT_RECORD names a directory, the cubin
// of a module and its entry there (KEY.cubin and KEY.json), for
// scripts/prebuild-kernels.sh to gather. Without it, it does nothing.
// Failing to write is not an error of the caller's work: it is reported
// on stderr once, and the run goes on.
func Record(src, file, arch string, opts []string, cubin []byte) {
	dir := os.Getenv(RecordEnv)
	if dir == "" {
		return
	}
	e := Entry{Key: Key(src, arch, opts), Arch: arch, File: file, Opts: opts}
	meta, _ := json.Marshal(e) // strings always marshal
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, e.Key+".cubin"), cubin, 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, e.Key+".json"), meta, 0o644)
	}
	if err != nil {
		recordFailed.Do(func() { fmt.Fprintf(os.Stderr, "apsp: %s: %v\n", RecordEnv, err) })
	}
}

var recordFailed sync.Once

// Gzip compresses a cubin as Lookup reads it (for the gathering script's
// Go side, and tests).
func Gzip(cubin []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(cubin)
	zw.Close()
	return buf.Bytes()
}
