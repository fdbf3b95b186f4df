// Command gather turns the modules that scripts/prebuild-kernels.sh
// recorded on a GPU machine (KEY.cubin and KEY.json each) into package
// prebuilt's embedded files: DST/ARCH/KEY.cubin.gz and DST/manifest.json,
// replacing the cubins and manifest that were there.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apsp/apsp/internal/gpu/prebuilt"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gather RECDIR DSTDIR")
		os.Exit(2)
	}
	if err := gather(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gather:", err)
		os.Exit(1)
	}
}

func gather(rec, dst string) error {
	metas, err := filepath.Glob(filepath.Join(rec, "*.json"))
	if err != nil {
		return err
	}
	if len(metas) == 0 {
		return fmt.Errorf("%s holds no recorded modules", rec)
	}
	old, _ := filepath.Glob(filepath.Join(dst, "sm_*", "*.cubin.gz"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	var entries []prebuilt.Entry
	for _, m := range metas {
		b, err := os.ReadFile(m)
		if err != nil {
			return err
		}
		var e prebuilt.Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		if !strings.HasPrefix(e.Arch, "sm_") || strings.ContainsAny(e.Arch+e.Key, "/\\.") {
			return fmt.Errorf("%s: bad entry %+v", m, e)
		}
		cubin, err := os.ReadFile(strings.TrimSuffix(m, ".json") + ".cubin")
		if err != nil {
			return err
		}
		dir := filepath.Join(dst, e.Arch)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Key+".cubin.gz"), prebuilt.Gzip(cubin), 0o644); err != nil {
			return err
		}
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return strings.Join(a.Opts, " ") < strings.Join(b.Opts, " ")
	})
	b, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dst, "manifest.json"), append(b, '\n'), 0o644)
}
