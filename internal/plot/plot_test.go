package plot

import (
	"bytes"
	"image/png"
	"testing"
)

func TestBars(t *testing.T) {
	for _, counts := range [][]int64{{0, 156, 530, 274, 146, 16}, {0}, make([]int64, 200)} {
		var b bytes.Buffer
		if err := Bars(&b, "title", "distance", "pairs", counts, 1); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() != 900 {
			t.Fatalf("width %d", img.Bounds().Dx())
		}
	}
}
