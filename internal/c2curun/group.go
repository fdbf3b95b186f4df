package c2curun

import (
	"fmt"
	"unsafe"

	"github.com/apsp/apsp/internal/cuda"
)

// GroupTiming is what a grouped run measured with CUDA events.
type GroupTiming struct {
	Groups    int
	TotalMS   float64   // first copy in to last copy out
	LatencyMS []float64 // per group: its copy in to its copy out
}

// streams is how many groups are in flight: one copying in, one computing,
// one copying out, as in the seeds' low-latency scheme (§3.5, §4.5).
const streams = 3

// RunGroups processes the p inputs in groups of b: each group is copied in,
// computed and copied out on one of three streams in turn, from page-locked
// buffers, so that one group's transfers overlap another's kernel. It
// returns the outputs in row layout.
func (r *Runner) RunGroups(in Data, p, b, t int) (Data, GroupTiming, error) {
	var out Data
	var tm GroupTiming
	err := r.dev.Do(func() error {
		var err error
		out, tm, err = r.runGroups(in, p, b, t)
		return err
	})
	return out, tm, err
}

func (r *Runner) runGroups(in Data, p, b, t int) (Data, GroupTiming, error) {
	dev := r.dev
	groups := (p + b - 1) / b
	tm := GroupTiming{Groups: groups}
	// Host layout: group after group, and within a group each global
	// column-wise [elems][bg].
	var total uint64
	for _, a := range r.arrays {
		total += uint64(elems(a) * p * a.ElemBytes)
	}
	total = max(total, 1)
	hin, err := dev.AllocHost(total)
	if err != nil {
		return nil, tm, err
	}
	defer dev.FreeHost(hin)
	hout, err := dev.AllocHost(total)
	if err != nil {
		return nil, tm, err
	}
	defer dev.FreeHost(hout)
	inBuf := unsafe.Slice((*byte)(hin), total)
	outBuf := unsafe.Slice((*byte)(hout), total)
	type span struct{ off, size int }
	spans := make([][]span, groups) // [group][array]
	off := 0
	for g := 0; g < groups; g++ {
		bg := min(b, p-g*b)
		for _, a := range r.arrays {
			e, es := elems(a), a.ElemBytes
			rows := in[a.Name][g*b*e*es : (g*b+bg)*e*es]
			copy(inBuf[off:], transpose(rows, bg, e, es))
			spans[g] = append(spans[g], span{off, bg * e * es})
			off += bg * e * es
		}
	}
	ss := make([]*cuda.Stream, streams)
	bufs := make([][]uint64, streams)
	for s := range ss {
		if ss[s], err = dev.NewStream(); err != nil {
			return nil, tm, err
		}
		defer ss[s].Destroy()
		for _, a := range r.arrays {
			d, err := dev.Alloc(uint64(max(b*elems(a)*a.ElemBytes, 1)))
			if err != nil {
				return nil, tm, err
			}
			defer dev.Free(d)
			bufs[s] = append(bufs[s], d)
		}
	}
	starts := make([]*cuda.Event, groups)
	ends := make([]*cuda.Event, groups)
	for g := range starts {
		if starts[g], err = dev.NewEvent(); err != nil {
			return nil, tm, err
		}
		defer starts[g].Destroy()
		if ends[g], err = dev.NewEvent(); err != nil {
			return nil, tm, err
		}
		defer ends[g].Destroy()
	}
	for g := 0; g < groups; g++ {
		s := ss[g%streams]
		bg := int32(min(b, p-g*b))
		if err := starts[g].RecordOn(s); err != nil {
			return nil, tm, err
		}
		for i, sp := range spans[g] {
			if err := s.CopyToDeviceAsync(bufs[g%streams][i], unsafe.Pointer(&inBuf[sp.off]), uint64(sp.size)); err != nil {
				return nil, tm, err
			}
		}
		args := make([]unsafe.Pointer, 0, len(r.arrays)+1)
		for i := range r.arrays {
			args = append(args, unsafe.Pointer(&bufs[g%streams][i]))
		}
		args = append(args, unsafe.Pointer(&bg))
		if err := r.fn.LaunchOn(s, [3]uint32{uint32((int(bg) + t - 1) / t), 1, 1}, [3]uint32{uint32(t), 1, 1}, 0, args...); err != nil {
			return nil, tm, err
		}
		for i, sp := range spans[g] {
			if err := s.CopyToHostAsync(unsafe.Pointer(&outBuf[sp.off]), bufs[g%streams][i], uint64(sp.size)); err != nil {
				return nil, tm, err
			}
		}
		if err := ends[g].RecordOn(s); err != nil {
			return nil, tm, err
		}
	}
	if err := dev.Synchronize(); err != nil {
		return nil, tm, err
	}
	for g := 0; g < groups; g++ {
		lat, err := ends[g].Since(starts[g])
		if err != nil {
			return nil, tm, err
		}
		tm.LatencyMS = append(tm.LatencyMS, lat)
		whole, err := ends[g].Since(starts[0])
		if err != nil {
			return nil, tm, err
		}
		tm.TotalMS = max(tm.TotalMS, whole)
	}
	out := Data{}
	for i, a := range r.arrays {
		out[a.Name] = make([]byte, 0, elems(a)*p*a.ElemBytes)
		for g := 0; g < groups; g++ {
			bg := min(b, p-g*b)
			sp := spans[g][i]
			out[a.Name] = append(out[a.Name], transpose(outBuf[sp.off:sp.off+sp.size], elems(a), bg, a.ElemBytes)...)
		}
		if len(out[a.Name]) != elems(a)*p*a.ElemBytes {
			return nil, tm, fmt.Errorf("%s: %d output bytes, want %d", a.Name, len(out[a.Name]), elems(a)*p*a.ElemBytes)
		}
	}
	return out, tm, nil
}

// CopyBandwidth measures device-to-device copy bandwidth (bytes read plus
// bytes written per second) with a 1 GiB copy, the best of five.
func (r *Runner) CopyBandwidth() (float64, error) {
	const size = 1 << 30
	var best float64
	err := r.dev.Do(func() error {
		a, err := r.dev.Alloc(size)
		if err != nil {
			return err
		}
		defer r.dev.Free(a)
		b, err := r.dev.Alloc(size)
		if err != nil {
			return err
		}
		defer r.dev.Free(b)
		if err := r.dev.Memset32(a, 0x12345678, size/4); err != nil {
			return err
		}
		e0, err := r.dev.NewEvent()
		if err != nil {
			return err
		}
		defer e0.Destroy()
		e1, err := r.dev.NewEvent()
		if err != nil {
			return err
		}
		defer e1.Destroy()
		for range 5 {
			if err := e0.Record(); err != nil {
				return err
			}
			if err := r.dev.CopyDevice(b, a, size); err != nil {
				return err
			}
			if err := e1.Record(); err != nil {
				return err
			}
			ms, err := e1.Since(e0)
			if err != nil {
				return err
			}
			best = max(best, 2*size/(ms/1e3))
		}
		return nil
	})
	return best, err
}
