// Command gather turns the modules that scripts/prebuild-kernels.sh
// recorded on a GPU machine (KEY.cubin and KEY.json each) into package
// prebuilt's embedded files: DST/ARCH/KEY.cubin.gz and DST/manifest.json.
// A recorded module replaces the one of the same file, architecture and
// options; the others stay. (A recording with the prebuilt cubins of a
// binary compiles, and so records, only the modules whose source changed;
// TestPrebuiltMatchSources in internal/gpu names any left stale.)
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
	// The modules there now, by what they are built from but the source.
	kept := map[string]prebuilt.Entry{}
	what := func(e prebuilt.Entry) string { return e.File + "\x00" + e.Arch + "\x00" + strings.Join(e.Opts, "\x01") }
	if b, err := os.ReadFile(filepath.Join(dst, "manifest.json")); err == nil {
		var old []prebuilt.Entry
		if err := json.Unmarshal(b, &old); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dst, "manifest.json"), err)
		}
		for _, e := range old {
			kept[what(e)] = e
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	var entries []prebuilt.Entry
	recorded := map[string]string{} // what(e) -> its recording, one each
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
		if other, ok := recorded[what(e)]; ok {
			return fmt.Errorf("%s and %s record %s %s %q from two sources: record once into an empty directory", other, m, e.File, e.Arch, e.Opts)
		}
		recorded[what(e)] = m
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
		if old, ok := kept[what(e)]; ok && old.Key != e.Key {
			if err := os.Remove(filepath.Join(dst, old.Arch, old.Key+".cubin.gz")); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		delete(kept, what(e))
		entries = append(entries, e)
	}
	for _, e := range kept {
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { // what(e) is unique: a total order
		return what(entries[i]) < what(entries[j])
	})
	b, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dst, "manifest.json"), append(b, '\n'), 0o644)
}
