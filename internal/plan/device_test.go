package plan

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/apsp/apsp/graph/gen"
)

func TestParseDevice(t *testing.T) {
	tests := []struct {
		in   string
		want Device
		err  string // a part of the error, or "" for none
	}{
		{"", Device{Kind: "auto"}, ""},
		{"auto", Device{Kind: "auto"}, ""},
		{"cpu", Device{Kind: "cpu"}, ""},
		{"gpu", Device{Kind: "gpu"}, ""},
		{"gpu:3", Device{Kind: "gpu", Ordinal: 3, Numbered: true}, ""},
		{"gpu:all", Device{Kind: "gpu", All: true}, ""},
		{"gpu:0,1", Device{Kind: "gpu", Ordinal: 0, Ordinals: []int{0, 1}, Numbered: true}, ""},
		{"gpu:2,0,1", Device{Kind: "gpu", Ordinal: 2, Ordinals: []int{2, 0, 1}, Numbered: true}, ""},
		{"gpu:1, 3", Device{Kind: "gpu", Ordinal: 1, Ordinals: []int{1, 3}, Numbered: true}, ""},
		{"gpu:5,", Device{}, "is not a GPU number"},
		{"gpu:,1", Device{}, "is not a GPU number"},
		{"gpu:0,-1", Device{}, "is not a GPU number"},
		{"gpu:0,x", Device{}, "is not a GPU number"},
		{"gpu:0,0", Device{}, "lists gpu:0 twice"},
		{"gpu:1,2,1", Device{}, "lists gpu:1 twice"},
		{"gpu:ALL", Device{}, "want gpu:N"},
		{"gpu:all,0", Device{}, "is not a GPU number"},
		{"gpu:", Device{}, "want gpu:N"},
		{"gpu:-1", Device{}, "want gpu:N"},
		{"gpu:99999999999999999999", Device{}, "want gpu:N"},
		{"tpu", Device{}, "want auto, cpu, gpu"},
	}
	for _, tt := range tests {
		got, err := ParseDevice(tt.in)
		if (err != nil) != (tt.err != "") || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDevice(%q) = %+v, %v", tt.in, got, err)
			continue
		}
		if err == nil {
			// String writes what ParseDevice reads back.
			if back, err := ParseDevice(got.String()); err != nil || !reflect.DeepEqual(back, got) {
				t.Errorf("ParseDevice(%q).String() = %q reads back as %+v, %v", tt.in, got, back, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseDevice(%q): %v does not wrap ErrInvalid", tt.in, err)
		}
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Option != "device" || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseDevice(%q): %v, want a device error saying %q", tt.in, err, tt.err)
		}
	}
	for in, multi := range map[string]bool{"gpu": false, "gpu:1": false, "gpu:all": true, "gpu:0,1": true, "cpu": false} {
		if d, _ := ParseDevice(in); d.Multi() != multi {
			t.Errorf("ParseDevice(%q).Multi() = %v, want %v", in, d.Multi(), multi)
		}
	}
}

// TestValidateSeveralGPUs: only the engines that split their work take
// a list of GPUs or gpu:all; the others are refused before any GPU is
// looked for, with ErrInvalid naming the engines that would.
func TestValidateSeveralGPUs(t *testing.T) {
	for _, tt := range []struct {
		algo, device string
		ok           bool
	}{
		{"gpu-bitbfs", "gpu:all", true},
		{"gpu-bitbfs", "gpu:0,1", true},
		{"gpu-sssp", "gpu:1,0", true},
		{"gpu-sssp", "gpu:all", true},
		{"auto", "gpu:all", true},
		{"", "gpu:0,1", true},
		{"gpu-multi", "gpu:0,1", true},
		{"gpu-single", "gpu:all", true},
		{"gpu-minplus", "gpu:0,1", false},
		{"gpu-multi", "gpu:1", true},
		{"bitbfs", "gpu:all", false},
		{"gpu-bitbfs", "gpu:0,0", false},
	} {
		err := Validate(Raw{Algorithm: tt.algo, Device: tt.device}, false)
		if (err == nil) != tt.ok {
			t.Errorf("Validate(%s on %s) = %v, want ok %v", tt.algo, tt.device, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("Validate(%s on %s) = %v, does not wrap ErrInvalid", tt.algo, tt.device, err)
		}
		if err != nil && strings.HasPrefix(tt.algo, "gpu-") && tt.device != "gpu:0,0" &&
			!strings.Contains(err.Error(), "gpu-multi, gpu-single, gpu-bitbfs and gpu-sssp") {
			t.Errorf("Validate(%s on %s) = %v, want it to name the engines that split", tt.algo, tt.device, err)
		}
	}
}

// TestResolveSeveralGPUsWithoutGPU: on a machine without a GPU (CI), a
// named splitting engine on a list or gpu:all fails for want of a GPU, as
// gpu:N does, never for the list itself.
func TestResolveSeveralGPUsWithoutGPU(t *testing.T) {
	g, err := gen.Make("regular", "n=64", "d=4", "seed=1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(g, request(t, Raw{Algorithm: "gpu-bitbfs", Device: "gpu:0"}, Matrix)); err == nil {
		t.Skip("a GPU is here: the GPU tests cover this")
	}
	for _, dev := range []string{"gpu:all", "gpu:0,1"} {
		for _, algo := range []string{"gpu-bitbfs", "gpu-sssp", "auto"} {
			_, err := Resolve(g, request(t, Raw{Algorithm: algo, Device: dev}, Rows))
			if err == nil || errors.Is(err, ErrInvalid) {
				t.Errorf("Resolve(%s on %s) without a GPU = %v, want the want of a GPU", algo, dev, err)
			}
		}
	}
}
