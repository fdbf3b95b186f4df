package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// outFile is where a command writes its result: stdout, or the file an -o
// names. A command creates it before it computes, so that an output that
// cannot be created fails at once rather than after the computation; a
// regular file is written under a temporary name beside it and renamed
// over it by commit, so that a failed computation (abort) leaves no empty
// or half-written file behind and an existing file as it was.
type outFile struct {
	w    io.Writer
	f    *os.File // nil for stdout
	path string   // the file named, for messages
	tmp  string   // the temporary name that commit renames to dst; "" when f is dst itself
	dst  string   // path with its symbolic links resolved
}

// createOutput creates the output path names: stdout for "" and "-"; a
// device or pipe that exists (/dev/null, /dev/stdout) opened as it is;
// otherwise a temporary file in path's directory, with the permissions
// os.Create would give path (those of the file it replaces, if any).
func createOutput(e *env, path string) (*outFile, error) {
	if path == "" || path == "-" {
		return &outFile{w: e.stdout}, nil
	}
	o := &outFile{path: path, dst: path}
	perm, existed := fs.FileMode(0o666), false // less the umask, as os.Create
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return nil, fmt.Errorf("-o %s: is a directory", path)
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return nil, fmt.Errorf("-o %s: %w", path, err)
			}
			o.f, o.w = f, f
			return o, nil
		}
		if o.dst, err = filepath.EvalSymlinks(path); err != nil {
			return nil, fmt.Errorf("-o %s: %w", path, err)
		}
		perm, existed = fi.Mode().Perm(), true
	}
	dir, base := filepath.Split(o.dst)
	for range 100 {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s.%08x.tmp", base, rand.Uint32()))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			// Name the file asked for, not the temporary one.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("-o %s: cannot create: %w", path, err)
		}
		if existed {
			// The replaced file's mode, which the umask may not allow at creation.
			if err := f.Chmod(perm); err != nil {
				f.Close()
				os.Remove(tmp)
				return nil, fmt.Errorf("-o %s: %w", path, err)
			}
		}
		o.f, o.w, o.tmp = f, f, tmp
		return o, nil
	}
	return nil, fmt.Errorf("-o %s: cannot create a temporary file in %s", path, dir)
}

// Write writes to the output.
func (o *outFile) Write(p []byte) (int, error) { return o.w.Write(p) }

// commit closes the output and puts the file in place. After commit,
// abort does nothing.
func (o *outFile) commit() error {
	if o.f == nil {
		return nil
	}
	f := o.f
	o.f = nil
	err := f.Close()
	if o.tmp == "" {
		return err
	}
	if err == nil {
		err = os.Rename(o.tmp, o.dst)
	}
	if err != nil {
		os.Remove(o.tmp)
		return fmt.Errorf("-o %s: %w", o.path, err)
	}
	return nil
}

// abort closes the output and removes the temporary file, if commit has not
// run: the file named is left as it was.
func (o *outFile) abort() {
	if o.f == nil {
		return
	}
	o.f.Close()
	if o.tmp != "" {
		os.Remove(o.tmp)
	}
	o.f = nil
}

// finish commits the output when err is nil and aborts it otherwise, and
// returns err or the commit's error.
func (o *outFile) finish(err error) error {
	if err != nil {
		o.abort()
		return err
	}
	return o.commit()
}
